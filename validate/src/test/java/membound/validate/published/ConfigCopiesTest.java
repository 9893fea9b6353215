package membound.validate.published;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The published set's config.json files that the model's config corpus also holds are its copies, byte for byte (where
 * their sources and parameter counts are checked); every file is listed with its address in the set's SOURCES.md.
 */
class ConfigCopiesTest {

    private static final Path MODELS = Path.of("src/main/resources/membound/validate/published/models");
    private static final Path CORPUS = Path.of("../model/src/test/resources/membound/model/configs");

    @Test
    void shouldKeepEveryConfigEqualToTheCorpusCopyAndListItsSource() throws IOException {
        List<Path> configs;
        try (Stream<Path> files = Files.list(MODELS)) {
            configs = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertFalse(configs.isEmpty(), MODELS.toAbsolutePath().toString());
        String sources = Files.readString(MODELS.resolve("SOURCES.md"));
        for (Path config : configs) {
            String name = config.getFileName().toString();
            Path copy = CORPUS.resolve(name);
            if (Files.isRegularFile(copy)) {
                assertArrayEquals(Files.readAllBytes(copy), Files.readAllBytes(config), name + " differs from the corpus");
            }
            assertTrue(sources.lines().anyMatch(l -> l.startsWith("| " + name + " | ") && l.contains("https://")),
                    name + " has no address in SOURCES.md");
        }
    }
}
