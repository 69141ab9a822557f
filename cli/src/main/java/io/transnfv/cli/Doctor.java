package io.transnfv.cli;

import io.transnfv.dpdk.Dpdk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What {@code transnfv doctor} checks on this machine: what the default run needs (a JDK 17+,
 * Maven 3.8+ for the launcher's build, a CPU) and what optional features need (DPDK, hugepages,
 * vfio, promtool, Chromium, Redis), each with what to do about it. The machine is read through
 * a {@link Host}, so tests can describe any machine.
 */
final class Doctor
{
    /** How one check came out. */
    enum Status
    {
        /** Fine. */
        OK("ok"),
        /** An optional feature is unavailable or a setting is not ideal: the default run works. */
        WARN("warn"),
        /** Something the default run needs is missing. */
        FAIL("FAIL");

        private final String label;

        Status(final String label)
        {
            this.label = label;
        }

        String label()
        {
            return label;
        }
    }

    /**
     * One line of the report.
     *
     * @param name   what was checked, e.g. {@code java}.
     * @param status how it came out.
     * @param detail what was found.
     * @param fix    what to do about it, or null when nothing needs doing.
     */
    record Check(String name, Status status, String detail, String fix)
    {
        /** @return the line as printed: status, name, what was found, then {@code fix: ...} if any. */
        String line()
        {
            return String.format("%-5s %-12s %s%s", status.label(), name, detail, fix == null ? "" : "; fix: " + fix);
        }
    }

    /** The machine as the checks see it. */
    interface Host
    {
        /** @return what {@code command} printed (stdout and stderr) if it ran and exited 0, else empty. */
        Optional<String> run(String... command);

        /** @return the file's text, or empty if it cannot be read. */
        Optional<String> read(Path file);

        /** @return the names in directory {@code dir}, empty if it cannot be listed. */
        List<String> list(Path dir);

        /** @return the Java version running this command, e.g. {@code 17.0.15}. */
        String javaVersion();

        /** @return CPUs available to the JVM. */
        int cpus();

        /** @return the open-file limit of this process, or -1 if unknown. */
        long openFileLimit();

        /** @return why the DPDK front end cannot be used here, or null if it can. */
        String dpdkUnavailableReason();
    }

    static final int MIN_JAVA = 17;
    static final int[] MIN_MAVEN = {3, 8};
    /** Below this the open-file limit is worth raising: captures, checkpoints and connections all take files. */
    static final long FEW_OPEN_FILES = 4096;

    private static final Pattern MAVEN_VERSION = Pattern.compile("Apache Maven (\\d+)\\.(\\d+)(\\.\\d+)?");
    private static final Pattern FIRST_VERSION = Pattern.compile("(\\d+(\\.\\d+)+)");
    private static final Pattern HUGEPAGES = Pattern.compile("HugePages_Total:\\s+(\\d+)");
    private static final Pattern HUGEPAGE_SIZE = Pattern.compile("Hugepagesize:\\s+(\\d+ kB)");

    private Doctor()
    {
    }

    /** @return every check, in the order printed. */
    static List<Check> check(final Host host)
    {
        final List<Check> checks = new ArrayList<>();
        checks.add(java(host));
        checks.add(maven(host));
        checks.add(cpus(host));
        checks.add(openFiles(host));
        checks.add(dpdkLibrary(host));
        checks.add(dpdkFrontEnd(host));
        checks.add(hugepages(host));
        checks.add(vfio(host));
        checks.add(optionalTool(host, "promtool", "Debian package prometheus",
            "the tests check /metrics with it", "promtool", "--version"));
        checks.add(optionalTool(host, "chromium", "Debian package chromium",
            "the tests load the live page in it", "chromium", "--version"));
        checks.add(optionalTool(host, "redis", "Debian package redis-server",
            "no run or test of this version uses it", "redis-server", "--version"));
        return checks;
    }

    /** @return true if nothing the default run needs is missing. */
    static boolean defaultRunReady(final List<Check> checks)
    {
        return checks.stream().noneMatch(c -> c.status() == Status.FAIL);
    }

    private static Check java(final Host host)
    {
        final String version = host.javaVersion();
        final int feature = leadingNumber(version);
        return feature >= MIN_JAVA
            ? new Check("java", Status.OK, version + " (" + MIN_JAVA + " or newer needed)", null)
            : new Check("java", Status.FAIL, version + " found, " + MIN_JAVA + " or newer needed",
                "install a JDK " + MIN_JAVA + "+ (Debian: apt-get install openjdk-17-jdk-headless) and put it first on PATH");
    }

    private static Check maven(final Host host)
    {
        final String fix = "install Maven " + MIN_MAVEN[0] + "." + MIN_MAVEN[1] + "+ (Debian: apt-get install maven);"
            + " ./transnfv builds the product with it";
        final Optional<String> said = host.run("mvn", "-B", "-v");
        if (said.isEmpty())
        {
            return new Check("maven", Status.FAIL, "mvn not found on PATH", fix);
        }
        final Matcher m = MAVEN_VERSION.matcher(said.get());
        if (!m.find())
        {
            return new Check("maven", Status.FAIL, "mvn -v does not say its version", fix);
        }
        final int major = Integer.parseInt(m.group(1));
        final int minor = Integer.parseInt(m.group(2));
        final String version = m.group(1) + "." + m.group(2) + (m.group(3) == null ? "" : m.group(3));
        return major > MIN_MAVEN[0] || major == MIN_MAVEN[0] && minor >= MIN_MAVEN[1]
            ? new Check("maven", Status.OK, version + " (" + MIN_MAVEN[0] + "." + MIN_MAVEN[1] + " or newer needed)", null)
            : new Check("maven", Status.FAIL, version + " found, " + MIN_MAVEN[0] + "." + MIN_MAVEN[1] + " or newer needed", fix);
    }

    private static Check cpus(final Host host)
    {
        final int cpus = host.cpus();
        final String isolated = host.read(Path.of("/sys/devices/system/cpu/isolated")).map(String::strip).orElse("");
        final String isolation = isolated.isEmpty() ? "none isolated" : "isolated: " + isolated;
        if (cpus >= 2)
        {
            return new Check("cpus", Status.OK, cpus + " available, " + isolation
                + " (the engine runs a worker per CPU by default)", null);
        }
        return new Check("cpus", Status.WARN, "1 available: outputs are the same, but the workers share one CPU",
            "give the JVM more CPUs (container or taskset limits), or run with --executor serial");
    }

    private static Check openFiles(final Host host)
    {
        final long limit = host.openFileLimit();
        if (limit < 0)
        {
            return new Check("open-files", Status.WARN, "limit unknown", "check ulimit -n");
        }
        return limit >= FEW_OPEN_FILES
            ? new Check("open-files", Status.OK, "limit " + limit, null)
            : new Check("open-files", Status.WARN, "limit " + limit + ", below " + FEW_OPEN_FILES,
                "raise it (ulimit -n 65536, or LimitNOFILE= in a systemd unit) for long runs with many outputs and scrapers");
    }

    private static Check dpdkLibrary(final Host host)
    {
        return host.run("pkg-config", "--modversion", "libdpdk").map(String::strip)
            .map(version -> new Check("dpdk", Status.OK, "libdpdk " + version + " (pkg-config)", null))
            .orElseGet(() -> new Check("dpdk", Status.WARN, "libdpdk not found by pkg-config: --dpdk and its tests are"
                + " unavailable", "apt-get install libdpdk-dev pkg-config (./transnfv does it when run as root), then rebuild"));
    }

    private static Check dpdkFrontEnd(final Host host)
    {
        final String reason = host.dpdkUnavailableReason();
        return reason == null
            ? new Check("dpdk-jni", Status.OK, "the DPDK front end's native library loads", null)
            : new Check("dpdk-jni", Status.WARN, "the DPDK front end cannot load: " + reason,
                "install libdpdk-dev, then rebuild (mvn -B -DskipTests package); see docs/dpdk.md");
    }

    private static Check hugepages(final Host host)
    {
        final String meminfo = host.read(Path.of("/proc/meminfo")).orElse("");
        final Matcher total = HUGEPAGES.matcher(meminfo);
        final Matcher size = HUGEPAGE_SIZE.matcher(meminfo);
        final long pages = total.find() ? Long.parseLong(total.group(1)) : 0;
        if (pages > 0)
        {
            return new Check("hugepages", Status.OK, pages + " reserved" + (size.find() ? " of " + size.group(1) : ""), null);
        }
        return new Check("hugepages", Status.WARN, "none reserved: DPDK runs need --no-huge in their EAL arguments"
            + " (as the pcap vdev examples use)",
            "for a real NIC reserve some as root: echo 1024 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
    }

    private static Check vfio(final Host host)
    {
        final boolean iommu = !host.list(Path.of("/sys/class/iommu")).isEmpty();
        final List<String> bound = host.list(Path.of("/sys/bus/pci/drivers/vfio-pci")).stream()
            .filter(name -> name.matches("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-9a-f]")).toList();
        final boolean loaded = !host.list(Path.of("/sys/module/vfio_pci")).isEmpty();
        if (loaded)
        {
            return new Check("vfio", Status.OK, "vfio-pci loaded, IOMMU " + (iommu ? "on" : "off") + ", "
                + (bound.isEmpty() ? "no NIC bound" : "bound: " + String.join(" ", bound)), bound.isEmpty()
                ? "bind a NIC for DPDK: dpdk-devbind.py --bind=vfio-pci <pci address>" : null);
        }
        return new Check("vfio", Status.WARN, "vfio-pci not loaded, IOMMU " + (iommu ? "on" : "off")
            + ": needed only to run DPDK on a real NIC", "as root: modprobe vfio-pci"
            + (iommu ? "" : " (and enable the IOMMU: intel_iommu=on or amd_iommu=on on the kernel command line)"));
    }

    private static Check optionalTool(final Host host, final String name, final String from, final String purpose,
        final String... command)
    {
        return host.run(command).map(said ->
        {
            final Matcher m = FIRST_VERSION.matcher(said);
            return new Check(name, Status.OK, command[0] + (m.find() ? " " + m.group(1) : "") + " (not needed to run: " + purpose
                + ")", null);
        }).orElseGet(() -> new Check(name, Status.WARN, command[0] + " not found (not needed to run: " + purpose + ")",
            "install the " + from));
    }

    private static int leadingNumber(final String version)
    {
        int i = 0;
        while (i < version.length() && Character.isDigit(version.charAt(i)))
        {
            i++;
        }
        return i == 0 ? -1 : Integer.parseInt(version.substring(0, i));
    }

    /** The machine this command runs on. */
    static final class SystemHost implements Host
    {
        private static final long COMMAND_TIMEOUT_SECONDS = 20;

        @Override
        public Optional<String> run(final String... command)
        {
            try
            {
                final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
                process.getOutputStream().close();
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (InputStream in = process.getInputStream())
                {
                    in.transferTo(out);
                }
                if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                    return Optional.empty();
                }
                return process.exitValue() == 0 ? Optional.of(out.toString(StandardCharsets.UTF_8)) : Optional.empty();
            }
            catch (final IOException e)
            {
                return Optional.empty();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }

        @Override
        public Optional<String> read(final Path file)
        {
            try
            {
                return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
            }
            catch (final IOException | RuntimeException e)
            {
                return Optional.empty();
            }
        }

        @Override
        public List<String> list(final Path dir)
        {
            try (Stream<Path> entries = Files.list(dir))
            {
                return entries.map(p -> p.getFileName().toString()).sorted().toList();
            }
            catch (final IOException | RuntimeException e)
            {
                return List.of();
            }
        }

        @Override
        public String javaVersion()
        {
            return Runtime.version().toString();
        }

        @Override
        public int cpus()
        {
            return Runtime.getRuntime().availableProcessors();
        }

        @Override
        public long openFileLimit()
        {
            final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            return os instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
        }

        @Override
        public String dpdkUnavailableReason()
        {
            return Dpdk.unavailableReason();
        }
    }
}
