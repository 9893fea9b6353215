package membound.calibrator;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where test inputs live: the shared fixtures beside the repository, this module's own, and examples. */
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

    /** A recorded output in {@code ../shared/fixtures/} relative to the repository root, as CI has it. */
    public static Path shared(String name) {
        Path path = repositoryRoot().resolve("../shared/fixtures").resolve(name).normalize();
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException("shared fixture must exist: " + path);
        }
        return path;
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
