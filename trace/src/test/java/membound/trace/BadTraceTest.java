package membound.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

/** Traces that are not traces, or not whole: one line naming the file, the rule and where reading stopped. */
class BadTraceTest {

    @TempDir
    Path dir;

    @Test
    void aGzipCutOffMidWriteNamesTheFileAndTheByteWhereReadingStopped() throws IOException {
        byte[] whole = Files.readAllBytes(TestTraces.htaRank0());
        Path cut = dir.resolve("cut.json.gz");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(cut));
        assertTrue(e.getMessage().contains("file=" + cut), e.getMessage());
        assertTrue(e.getMessage().contains("gzip") && e.getMessage().contains("byte="), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void aCorruptGzipIsRefusedInOneLine() throws IOException {
        byte[] bytes = Files.readAllBytes(TestTraces.htaRank0());
        for (int i = 100; i < 200; i++) {
            bytes[i] ^= (byte) 0x5a;
        }
        Path bad = dir.resolve("bad.json.gz");
        Files.write(bad, bytes);
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(bad));
        assertTrue(e.getMessage().contains("file=" + bad) && e.getMessage().contains("byte="), e.getMessage());
    }

    @Test
    void jsonCutOffMidWriteGivesTheByteOffset() throws IOException {
        byte[] json;
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(TestTraces.htaRank1()))) {
            json = in.readAllBytes();
        }
        Path cut = dir.resolve("cut.json");
        Files.write(cut, Arrays.copyOf(json, 50_000));
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(cut));
        assertTrue(e.getMessage().contains("cut off mid-write") && e.getMessage().contains("byte=50000"),
                e.getMessage());
    }

    @Test
    void jsonThatIsNoTraceIsRefused() throws IOException {
        Path other = dir.resolve("config.json");
        Files.writeString(other, "{\"model_type\": \"gpt2\", \"n_layer\": 12}");
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(other));
        assertTrue(e.getMessage().startsWith("trace must be a PyTorch profiler trace"), e.getMessage());
    }

    @Test
    void ranksOfDifferentJobsAreRefused() throws IOException {
        Path a = dir.resolve("jobs/a.json");
        Files.createDirectories(a.getParent());
        Files.writeString(a, "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 8}, \"traceEvents\": []}");
        Files.writeString(dir.resolve("jobs/b.json"), "{\"distributedInfo\": {\"rank\": 1, \"world_size\": 4}, "
                + "\"traceEvents\": []}");
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(List.of(a.getParent())));
        assertTrue(e.getMessage().contains("one job") && e.getMessage().contains("world_size=4"), e.getMessage());
    }

    @Test
    void twoFilesOfOneRankAreRefused() throws IOException {
        String rank = "{\"distributedInfo\": {\"rank\": 3, \"world_size\": 8}, \"traceEvents\": []}";
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Files.write(a, rank.getBytes(StandardCharsets.UTF_8));
        Files.write(b, rank.getBytes(StandardCharsets.UTF_8));
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(List.of(a, b)));
        assertTrue(e.getMessage().contains("repeats rank=3"), e.getMessage());
    }

    @Test
    void anNsightSystemsReportMustBeExportedFirst() throws IOException {
        Path rep = dir.resolve("job.nsys-rep");
        Files.write(rep, new ByteArrayOutputStream().toByteArray());
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(rep));
        assertTrue(e.getMessage().contains("nsys export --type sqlite"), e.getMessage());
    }
}
