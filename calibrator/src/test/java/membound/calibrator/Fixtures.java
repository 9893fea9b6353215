package membound.calibrator;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where test inputs live: this module's fixtures and the example profile; nothing outside the clone. */
public final class Fixtures {

    private Fixtures() {
    }

    /** The repository root: the nearest directory above the working directory that holds {@code .ci}. */
    public static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("tests must run inside the membound repository: cwd="
                + Path.of("").toAbsolutePath());
    }

    /** A fixture of this module (src/test/resources/fixtures). */
    public static Path local(String name) {
        return repositoryRoot().resolve("calibrator/src/test/resources/fixtures").resolve(name);
    }

    /** The hand-written DGX Spark-like example profile. */
    public static Path exampleProfile() {
        return repositoryRoot().resolve("results/profiles/examples/dgx-spark-example.json");
    }
}
