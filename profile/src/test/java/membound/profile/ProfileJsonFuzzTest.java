package membound.profile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Random;

import membound.vocabulary.BadInputException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The profile reader on mangled versions of the example: a profile comes back (and then writes back to
 * the form it was read in) or a one-line {@link BadInputException}; nothing else escapes.
 */
class ProfileJsonFuzzTest {

    static final String[] REPLACEMENTS = {"\"NaN\"", "-1", "0", "1e400", "null", "[]", "{}", "\"x\"", "true", "1.5"};

    @Property(tries = 50)
    void readerReturnsAProfileOrOneLineError(@ForAll @IntRange(min = 0, max = 2) int kind, @ForAll long seed)
            throws IOException {
        byte[] original = Files.readAllBytes(ProfileJsonTest.EXAMPLE);
        Random random = new Random(seed);
        String text = new String(original, StandardCharsets.UTF_8);
        String mangled = switch (kind) {
            case 0 -> text.substring(0, random.nextInt(text.length()));
            case 1 -> {
                // Replace one value (what follows a ": ") with something of another kind or out of range.
                int at = text.indexOf(": ", random.nextInt(text.length()));
                if (at < 0) {
                    yield text;
                }
                int end = at + 2;
                while (end < text.length() && ",\n}]".indexOf(text.charAt(end)) < 0) {
                    end++;
                }
                yield text.substring(0, at + 2) + REPLACEMENTS[random.nextInt(REPLACEMENTS.length)] + text.substring(end);
            }
            default -> {
                char[] chars = text.toCharArray();
                chars[random.nextInt(chars.length)] = (char) (32 + random.nextInt(95));
                yield new String(chars);
            }
        };
        try {
            Profile profile = ProfileJson.read(mangled, "fuzzed.json");
            byte[] once = ProfileJson.toBytes(profile);
            assertArrayEquals(once, ProfileJson.toBytes(ProfileJson.read(once, "again")));
        } catch (BadInputException e) {
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        }
    }
}
