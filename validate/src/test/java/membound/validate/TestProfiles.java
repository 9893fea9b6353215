package membound.validate;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's example profile (a DGX Spark-like host with made-up figures, and a nominal bandwidth). */
final class TestProfiles {

    private TestProfiles() {
    }

    static Path example() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path example = dir.resolve("results/profiles/examples/dgx-spark-example.json");
            if (Files.isRegularFile(example)) {
                return example;
            }
        }
        throw new IllegalStateException("tests must run inside the repository");
    }
}
