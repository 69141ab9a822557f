package io.transnfv.cli;

import picocli.CommandLine.Command;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code transnfv doctor}: what this machine has and lacks for TransNFV, one line each, with what to do. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
    description = {"Check this machine for what TransNFV needs: JDK, Maven, CPUs, open-file limit, DPDK (library,"
        + " hugepages, vfio), promtool, Chromium and Redis, one line each with what to do about a problem.",
        "Exit status 0 when everything the default run needs is there (warnings are about optional features),"
            + " 1 otherwise."})
final class DoctorCommand implements Callable<Integer>
{
    private final Doctor.Host host;

    DoctorCommand()
    {
        this(new Doctor.SystemHost());
    }

    DoctorCommand(final Doctor.Host host)
    {
        this.host = host;
    }

    @Override
    public Integer call()
    {
        final List<Doctor.Check> checks = Doctor.check(host);
        for (final Doctor.Check check : checks)
        {
            System.out.println(check.line());
        }
        final long warnings = checks.stream().filter(c -> c.status() == Doctor.Status.WARN).count();
        if (Doctor.defaultRunReady(checks))
        {
            System.out.println("doctor: everything the default run needs is here"
                + (warnings == 0 ? "" : " (" + warnings + " warning" + (warnings == 1 ? "" : "s") + " about optional features)"));
            return 0;
        }
        System.out.println("doctor: the default run cannot work here: fix the FAIL lines above");
        return Failures.FAILED;
    }
}
