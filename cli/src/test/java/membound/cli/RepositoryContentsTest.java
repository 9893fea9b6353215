package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * What a fresh clone holds under {@code results/}: the examples and nothing else. {@code .gitignore} calls the rest
 * what a user's runs write; a run committed there (by {@code git add -f}) would be someone else's profile in every
 * clone, and {@code latest} on a host of the same name would pick it before the user's first calibration.
 */
class RepositoryContentsTest {

    @Test
    void shouldTrackNothingUnderResultsButTheExamples() throws IOException, InterruptedException {
        Path root = TestProfiles.root();
        // A copy of the working tree without its git directory (a device machine's) has no index to read.
        assumeTrue(Files.exists(root.resolve(".git")), "not a git checkout: " + root);
        Process git;
        try {
            git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "results").redirectErrorStream(true).start();
        } catch (IOException noGit) {
            assumeTrue(false, "git is not installed: " + noGit.getMessage());
            return;
        }
        String listed = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(git.waitFor(60, TimeUnit.SECONDS) && git.exitValue() == 0, "git ls-files failed: " + listed);
        List<String> others = listed.lines().filter(line -> !line.startsWith("results/profiles/examples/")).toList();
        assertEquals(List.of(), others, "results/ must hold only the examples; a recorded run worth keeping goes "
                + "under docs/records/");
    }
}
