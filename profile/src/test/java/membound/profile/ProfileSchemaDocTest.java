package membound.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/** The minimal profile in docs/profile-schema.md is a valid profile in the form the writer produces. */
class ProfileSchemaDocTest {

    @Test
    void shouldReadTheMinimalProfileOfTheSchemaDocument() throws IOException {
        String doc = Files.readString(Path.of("../docs/profile-schema.md"));
        int start = doc.lastIndexOf("```json\n");
        assertTrue(start >= 0, "the document must end with a ```json block");
        String json = doc.substring(start + "```json\n".length(), doc.indexOf("```", start + 7));
        Profile profile = ProfileJson.read(json, "docs/profile-schema.md");
        assertEquals(22e9, profile.device("cpu").orElseThrow().ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD)
                .orElseThrow().bytesPerSecond());
        assertEquals(json, ProfileJson.toJson(profile), "the example must be in the writer's form");
    }
}
