package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Commands, their options and their output live in cli; the library modules give cli an API and never parse a
 * command line. The poms' enforcer rule keeps the picocli dependency out; this keeps the imports out, naming
 * the file, including a module added later.
 */
class PicocliOnlyInCliTest {

    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(static\\s+)?picocli\\.");

    @Test
    void shouldFindPicocliImportedOnlyInTheCliModule() throws IOException {
        Path root = TestProfiles.root();
        List<String> offenders = new ArrayList<>();
        List<String> modules = new ArrayList<>();
        int cliImports = 0;
        try (Stream<Path> children = Files.list(root)) {
            for (Path module : children.sorted().toList()) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isDirectory(sources)) {
                    continue;
                }
                modules.add(module.getFileName().toString());
                for (Path file : javaFiles(sources)) {
                    if (importsPicocli(file)) {
                        if (module.getFileName().toString().equals("cli")) {
                            cliImports++;
                        } else {
                            offenders.add(root.relativize(file).toString());
                        }
                    }
                }
            }
        }
        assertTrue(modules.contains("calibrator") && modules.contains("cli"),
                "the scan must see the repository's modules: modules=" + modules);
        assertTrue(cliImports > 0, "the scan must recognise picocli imports (cli's commands have them)");
        assertEquals(List.of(), offenders, "picocli must be imported in the cli module only; move the command "
                + "(or its option or output) to cli and give it a library API");
    }

    private static List<Path> javaFiles(Path sources) throws IOException {
        try (Stream<Path> walk = Files.walk(sources)) {
            return walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).sorted().toList();
        }
    }

    private static boolean importsPicocli(Path file) throws IOException {
        try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.anyMatch(line -> IMPORT.matcher(line).find());
        }
    }
}
