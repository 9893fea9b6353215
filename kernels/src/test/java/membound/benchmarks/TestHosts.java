package membound.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;

import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.SystemFiles;

/** The hardware module's host fixtures (a GB10-like DGX Spark, the x86 development VM), read in place. */
public final class TestHosts {

    private TestHosts() {
    }

    /** {@code hardware/src/test/resources/hosts/<name>}, found from the working directory up. */
    public static Path fixture(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("hardware/src/test/resources/hosts").resolve(name);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("tests must run inside the membound repository: no hosts/" + name
                + " above " + Path.of("").toAbsolutePath());
    }

    /** The GB10-like fixture: 10 Cortex-X925 and 10 Cortex-A725 cores in two clusters. */
    public static Host dgxSpark() {
        return HostDetector.detect(SystemFiles.fixture(fixture("dgx-spark")));
    }

    /** The 2-core x86 development VM, one core type. */
    public static Host devEpyc() {
        return HostDetector.detect(SystemFiles.fixture(fixture("dev-epyc")));
    }
}
