package membound.vocabulary.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

class InputFilesTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadARegularFileWhole() throws IOException {
        Path file = Files.write(dir.resolve("p.json"), "{\"a\": 1}\n".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(Files.readAllBytes(file), InputFiles.readBytes(file, "profile", InputFiles.Kind.PROFILE));
        assertEquals("{\"a\": 1}\n", InputFiles.readText(file, "profile", InputFiles.Kind.PROFILE));
    }

    @Test
    void shouldReadThroughALinkToARegularFile() throws IOException {
        Path file = Files.writeString(dir.resolve("real.json"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), file);
        assertEquals("{}", InputFiles.readText(link, "profile", InputFiles.Kind.PROFILE));
    }

    @Test
    void shouldRefuseDevicesAndDirectoriesByTypeBeforeOpeningThem() throws IOException {
        Path zero = Files.createSymbolicLink(dir.resolve("zero.json"), Path.of("/dev/zero"));
        BadInputException device = assertThrows(BadInputException.class,
                () -> InputFiles.readBytes(zero, "profile", InputFiles.Kind.PROFILE));
        assertEquals("profile must be a regular file, not a character device: file=" + zero, device.getMessage());
        BadInputException directory = assertThrows(BadInputException.class,
                () -> InputFiles.readBytes(dir, "config.json", InputFiles.Kind.CONFIG));
        assertEquals("config.json must be a file, not a directory: file=" + dir, directory.getMessage());
    }

    @Test
    void shouldRefuseAFifoWithoutBlockingOnIt() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        BadInputException e = assertThrows(BadInputException.class,
                () -> InputFiles.readBytes(fifo, "tool output", InputFiles.Kind.TOOL_OUTPUT));
        assertEquals("tool output must be a regular file, not a FIFO: file=" + fifo, e.getMessage());
    }

    @Test
    void shouldRefuseAFileAboveItsKindsLimitBeforeReadingIt() throws IOException {
        Path huge = dir.resolve("config.json");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(InputFiles.Kind.CONFIG.maxBytes() + 1); // sparse: nothing is on disk to read
        }
        BadInputException e = assertThrows(BadInputException.class,
                () -> InputFiles.readBytes(huge, "config.json", InputFiles.Kind.CONFIG));
        assertEquals("config.json must be at most 4194304 bytes: file=" + huge + ", bytes=4194305", e.getMessage());
        // The same size is a profile's to read.
        assertEquals(InputFiles.Kind.CONFIG.maxBytes() + 1, InputFiles.readBytes(huge, "profile",
                InputFiles.Kind.PROFILE).length);
    }

    @Test
    void shouldNameTheByteWhereTextStopsBeingUtf8() throws IOException {
        Path file = Files.write(dir.resolve("out.txt"), new byte[] {'o', 'k', (byte) 0xc3, '(', 'x'});
        BadInputException e = assertThrows(BadInputException.class,
                () -> InputFiles.readText(file, "STREAM output", InputFiles.Kind.TOOL_OUTPUT));
        assertEquals("STREAM output must be UTF-8 text: file=" + file + ", byte=2", e.getMessage());
    }

    @Test
    void shouldSayAMissingFileIsMissing() {
        Path absent = dir.resolve("absent.json");
        BadInputException e = assertThrows(BadInputException.class,
                () -> InputFiles.readBytes(absent, "profile", InputFiles.Kind.PROFILE));
        assertEquals("profile must be an existing file: file=" + absent, e.getMessage());
    }

    @Test
    void shouldRefuseEmptyAndUnencodableNamesInOneLine() {
        BadInputException empty = assertThrows(BadInputException.class, () -> PathNames.of("--out", ""));
        assertTrue(empty.getMessage().startsWith("--out must not be empty"), empty.getMessage());
        assertEquals("caf\\u00e9 \\u0007", PathNames.escaped("caf\u00e9 \u0007"));
        assertEquals(Path.of("a/b"), PathNames.of("--out", "a/b"));
    }
}
