package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The rules about text, over the repository's sources and docs (the import rules are {@link ModuleRulesTest}'s, on the
 * byte code): every shared word is declared once, in the vocabulary module, and passed as that type (no enum
 * re-declared in a module, no {@code valueOf(x.name())} bridge written in a source, src/main/java22 included); and
 * the path of a DRAM figure from the kernel to the roofline, as the table in docs/architecture.md lists it, is at
 * most nine hops through methods that exist.
 */
class ArchitectureRulesTest {

    /** The vocabulary's words: no module declares a type of the same name. */
    private static final List<String> WORDS = List.of("Precision", "DeviceKind", "LinkKind", "MemoryLevel",
            "AccessPattern", "RowOperation", "ProductShape", "Labelled", "BadInputException");
    private static final Pattern DECLARATION = Pattern.compile("\\b(enum|record|class|interface)\\s+(\\w+)\\b");
    /** {@code X.valueOf(y.name())}: one enum bridged to another by its constant's name. */
    private static final Pattern NAME_BRIDGE = Pattern.compile("\\.valueOf\\(\\s*[\\w.()]+\\.name\\(\\)\\s*\\)");
    private static final Pattern HOP = Pattern.compile("^\\|\\s*(\\d+)\\s*\\|\\s*`([\\w.]+)#(\\w+)`");
    private static final int MAX_HOPS = 9;

    @Test
    void shouldDeclareEveryWordOnceInTheVocabularyAndBridgeNoEnumByName() throws IOException {
        Path root = TestProfiles.root();
        List<String> redeclared = new ArrayList<>();
        List<String> bridges = new ArrayList<>();
        List<String> vocabulary = new ArrayList<>();
        for (Path file : mainSources(root)) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            String where = root.relativize(file).toString();
            Matcher m = DECLARATION.matcher(text);
            while (m.find()) {
                if (WORDS.contains(m.group(2))) {
                    (where.startsWith("vocabulary/") ? vocabulary : redeclared).add(where + ": " + m.group(2));
                }
            }
            Matcher bridge = NAME_BRIDGE.matcher(text);
            while (bridge.find()) {
                bridges.add(where + ": " + bridge.group());
            }
        }
        assertEquals(WORDS.size(), vocabulary.size(), "each word once in the vocabulary: " + vocabulary);
        assertEquals(List.of(), redeclared, "a word of the vocabulary must not be declared again in a module");
        assertEquals(List.of(), bridges, "pass the vocabulary's type instead of bridging enums by name");
    }

    @Test
    void shouldWalkADramFigureFromTheKernelToTheRooflineInAtMostNineHops() throws Exception {
        List<String> lines = Files.readAllLines(TestProfiles.root().resolve("docs/architecture.md"));
        List<Integer> numbers = new ArrayList<>();
        for (String line : lines) {
            Matcher m = HOP.matcher(line);
            if (!m.find()) {
                continue;
            }
            numbers.add(Integer.parseInt(m.group(1)));
            Class<?> type = Class.forName(m.group(2));
            String method = m.group(3);
            assertTrue(Arrays.stream(type.getDeclaredMethods()).map(Method::getName).anyMatch(method::equals),
                    "hop " + m.group(1) + " names a method that exists: " + m.group(2) + "#" + method);
        }
        assertTrue(numbers.size() >= 5, "docs/architecture.md lists the hops: " + numbers);
        assertTrue(numbers.size() <= MAX_HOPS, "at most " + MAX_HOPS + " hops: " + numbers.size());
        for (int i = 0; i < numbers.size(); i++) {
            assertEquals(i + 1, numbers.get(i), "hops numbered in order");
        }
    }

    private static List<Path> mainSources(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.sorted().toList()) {
                for (String sourceSet : List.of("src/main/java", "src/main/java22")) {
                    Path sources = module.resolve(sourceSet);
                    if (Files.isDirectory(sources)) {
                        try (Stream<Path> walk = Files.walk(sources)) {
                            walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
                        }
                    }
                }
            }
        }
        return files;
    }
}
