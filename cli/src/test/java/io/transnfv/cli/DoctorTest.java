package io.transnfv.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code transnfv doctor} on machines described by hand, and on this one. */
class DoctorTest
{
    @Test
    void shouldSayEverythingIsFineOnAMachineWithEverything()
    {
        final FakeHost host = FakeHost.complete();
        final List<Doctor.Check> checks = Doctor.check(host);
        assertTrue(Doctor.defaultRunReady(checks));
        for (final Doctor.Check check : checks)
        {
            assertEquals(Doctor.Status.OK, check.status(), check.line());
            assertTrue(check.line().startsWith("ok    " + check.name()), check.line());
        }
        assertTrue(line(checks, "java").contains("17.0.15"));
        assertTrue(line(checks, "maven").contains("3.9.6"));
        assertTrue(line(checks, "dpdk").contains("libdpdk 22.11.11"));
        assertTrue(line(checks, "hugepages").contains("1024 reserved of 2048 kB"));
        assertTrue(line(checks, "vfio").contains("bound: 0000:03:00.0"));
        assertTrue(line(checks, "cpus").contains("isolated: 2-3"));
        assertTrue(line(checks, "promtool").contains("promtool 2.42.0"));
    }

    @Test
    void shouldWarnWithAFixForEachMissingOptionalFeatureAndStillPassTheDefaultRun()
    {
        final FakeHost host = FakeHost.complete();
        host.commands.keySet().removeIf(c -> !c.startsWith("mvn"));
        host.files.put("/proc/meminfo", "HugePages_Total:       0\nHugepagesize:       2048 kB\n");
        host.dirs.clear();
        host.dpdkReason = "libtransnfv_dpdk.so was not built (libdpdk-dev missing)";
        host.openFiles = 1024;
        host.cpus = 1;
        final List<Doctor.Check> checks = Doctor.check(host);
        assertTrue(Doctor.defaultRunReady(checks), "DPDK, promtool, Chromium and Redis are optional");
        for (final String name : List.of("dpdk", "dpdk-jni", "hugepages", "vfio", "promtool", "chromium", "redis", "open-files",
            "cpus"))
        {
            final Doctor.Check check = find(checks, name);
            assertEquals(Doctor.Status.WARN, check.status(), check.line());
            assertTrue(check.line().contains("; fix: "), check.line());
        }
        assertTrue(line(checks, "hugepages").contains("--no-huge"));
        assertTrue(line(checks, "vfio").contains("modprobe vfio-pci"));
        assertTrue(line(checks, "promtool").contains("prometheus"));
        assertTrue(line(checks, "dpdk-jni").contains("libdpdk-dev missing"));
    }

    @Test
    void shouldFailWhenMavenIsMissingOrTooOld()
    {
        final FakeHost missing = FakeHost.complete();
        missing.commands.remove("mvn -B -v");
        final List<Doctor.Check> none = Doctor.check(missing);
        assertFalse(Doctor.defaultRunReady(none));
        assertTrue(line(none, "maven").startsWith("FAIL  maven        mvn not found on PATH; fix: install Maven 3.8+"),
            line(none, "maven"));

        final FakeHost old = FakeHost.complete();
        old.commands.put("mvn -B -v", "Apache Maven 3.6.3 (cecedd343002696d0abb50b32b541b8a6ba2883f)\n");
        final List<Doctor.Check> checks = Doctor.check(old);
        assertFalse(Doctor.defaultRunReady(checks));
        assertTrue(line(checks, "maven").contains("3.6.3 found, 3.8 or newer needed"), line(checks, "maven"));
    }

    @Test
    void shouldFailOnAJavaOlderThan17()
    {
        final FakeHost host = FakeHost.complete();
        host.java = "11.0.22+7";
        final List<Doctor.Check> checks = Doctor.check(host);
        assertFalse(Doctor.defaultRunReady(checks));
        assertTrue(line(checks, "java").startsWith("FAIL"), line(checks, "java"));
        assertTrue(line(checks, "java").contains("openjdk-17-jdk-headless"), line(checks, "java"));
    }

    @Test
    void shouldPrintOneLinePerCheckAndExitAsTheDefaultRunsNeedsSay()
    {
        final FakeHost broken = FakeHost.complete();
        broken.commands.remove("mvn -B -v");
        final Captured failing = captured(broken);
        assertEquals(1, failing.status());
        assertTrue(failing.out().contains("FAIL  maven"), failing.out());
        assertTrue(failing.out().strip().endsWith("fix the FAIL lines above"), failing.out());

        final Captured passing = captured(FakeHost.complete());
        assertEquals(0, passing.status(), passing.out());
        assertEquals(Doctor.check(FakeHost.complete()).size() + 1, passing.out().lines().count(), passing.out());
    }

    @Test
    void shouldCheckThisMachineWithOneLineEach()
    {
        final Captured doctor = Captured.run("doctor");
        final List<String> lines = doctor.out().lines().toList();
        for (final String line : lines.subList(0, lines.size() - 1))
        {
            assertTrue(line.matches("(ok   |warn |FAIL ) [a-z-]+ +.+"), line);
        }
        assertEquals(doctor.out().contains("\nFAIL ") || doctor.out().startsWith("FAIL ") ? 1 : 0, doctor.status(), doctor.out());
        assertTrue(lines.get(0).startsWith("ok    java"), doctor.out());
    }

    private static Captured captured(final FakeHost host)
    {
        final java.io.PrintStream old = System.out;
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try
        {
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            final int status = new DoctorCommand(host).call();
            return new Captured(status, out.toString(java.nio.charset.StandardCharsets.UTF_8), "");
        }
        finally
        {
            System.setOut(old);
        }
    }

    private static Doctor.Check find(final List<Doctor.Check> checks, final String name)
    {
        return checks.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
    }

    private static String line(final List<Doctor.Check> checks, final String name)
    {
        return find(checks, name).line();
    }

    /** A machine described by hand: commands and what they print, files, directories. */
    private static final class FakeHost implements Doctor.Host
    {
        final Map<String, String> commands = new HashMap<>();
        final Map<String, String> files = new HashMap<>();
        final Map<String, List<String>> dirs = new HashMap<>();
        String java = "17.0.15+6-Debian-1deb12u1";
        int cpus = 4;
        long openFiles = 65_536;
        String dpdkReason;

        static FakeHost complete()
        {
            final FakeHost host = new FakeHost();
            host.commands.put("mvn -B -v", "Apache Maven 3.9.6 (bc0240f3c744dd6b6ec2920b3cd08dcc295161ae)\nJava version: 17\n");
            host.commands.put("pkg-config --modversion libdpdk", "22.11.11\n");
            host.commands.put("promtool --version", "promtool, version 2.42.0+ds (branch: debian/sid)\n");
            host.commands.put("chromium --version", "Chromium 131.0.6778.139 built on Debian 12.8\n");
            host.commands.put("redis-server --version", "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0\n");
            host.files.put("/proc/meminfo", "MemTotal: 1 kB\nHugePages_Total:    1024\nHugepagesize:       2048 kB\n");
            host.files.put("/sys/devices/system/cpu/isolated", "2-3\n");
            host.dirs.put("/sys/module/vfio_pci", List.of("parameters", "refcnt"));
            host.dirs.put("/sys/class/iommu", List.of("dmar0"));
            host.dirs.put("/sys/bus/pci/drivers/vfio-pci", new ArrayList<>(List.of("0000:03:00.0", "bind", "new_id")));
            return host;
        }

        @Override
        public Optional<String> run(final String... command)
        {
            return Optional.ofNullable(commands.get(String.join(" ", command)));
        }

        @Override
        public Optional<String> read(final Path file)
        {
            return Optional.ofNullable(files.get(file.toString()));
        }

        @Override
        public List<String> list(final Path dir)
        {
            return dirs.getOrDefault(dir.toString(), List.of());
        }

        @Override
        public String javaVersion()
        {
            return java;
        }

        @Override
        public int cpus()
        {
            return cpus;
        }

        @Override
        public long openFileLimit()
        {
            return openFiles;
        }

        @Override
        public String dpdkUnavailableReason()
        {
            return dpdkReason;
        }
    }
}
