package membound.profile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

class ProfileJsonTest {

    static final Path EXAMPLE = Path.of("../results/profiles/examples/dgx-spark-example.json");

    static String example() throws IOException {
        return Files.readString(EXAMPLE);
    }

    @Test
    void shouldWriteTheExampleBackByteForByte() throws IOException {
        byte[] original = Files.readAllBytes(EXAMPLE);
        Profile profile = ProfileJson.read(EXAMPLE);
        byte[] written = ProfileJson.toBytes(profile);
        assertArrayEquals(original, written, "write(read(example)) must equal the example");
        assertEquals(profile, ProfileJson.read(written, "again"));
    }

    @Test
    void shouldGiveTheModelWhatItNeeds() {
        Profile profile = ProfileJson.read(EXAMPLE);
        Device cpu = profile.device("cpu").orElseThrow();
        Device gpu = profile.device("gpu").orElseThrow();
        assertEquals(112e9, cpu.ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD).orElseThrow().bytesPerSecond());
        assertEquals(232e9, gpu.ceiling(MemoryLevel.DRAM, AccessPattern.READ).orElseThrow().bytesPerSecond());
        assertEquals(java.util.List.of("gpu"), cpu.unifiedMemoryWith());
        assertEquals(273e9, profile.nominal().memoryBandwidthOf("gpu").orElseThrow().bytesPerSecond());
        assertTrue(profile.nominal().computeOf("gpu", Precision.BF16).isEmpty(), "bf16 nominal is unknown");
        assertEquals(92.3e12, gpu.computeCeiling(Precision.BF16, ComputeEntry.Kind.GEMM).orElseThrow()
                .flopsPerSecond());
        assertEquals(22.5e9, profile.link("spark-pair").orElseThrow().bandwidthBytesPerSecond().best());
        assertEquals(3, profile.host().lastLevelCache().orElseThrow().level() == 4 ? 3 : 0,
                "the system-level cache is level 4; the last level is the SLC");
        assertTrue(profile.quality().flags().stream().anyMatch(f -> f.code().equals("example")));
    }

    @Test
    void shouldWriteWholeNumbersAsIntegers() throws IOException {
        assertTrue(example().contains("\"bytesPerSecond\": 273000000000,"), "273 GB/s as an integer");
        assertTrue(example().contains("\"flopsPerSecond\": 1000000000000000,"), "1 PFLOP/s as an integer");
    }

    @Test
    void shouldRefuseAnotherSchemaVersion() throws IOException {
        String seven = example().replace("\"schemaVersion\": 4,", "\"schemaVersion\": 7,");
        BadInputException e = assertThrows(BadInputException.class, () -> ProfileJson.read(seven, "old.json"));
        assertTrue(e.getMessage().startsWith("profile schemaVersion must be from 1 to 4: file=old.json, schemaVersion=7"),
                e.getMessage());
        String zero = example().replace("\"schemaVersion\": 4,", "\"schemaVersion\": 0,");
        assertTrue(assertThrows(BadInputException.class, () -> ProfileJson.read(zero, "z.json")).getMessage()
                .contains("schemaVersion=0 (no such version"));
        String text = example().replace("\"schemaVersion\": 4,", "\"schemaVersion\": \"2\",");
        assertTrue(assertThrows(BadInputException.class, () -> ProfileJson.read(text, "t.json")).getMessage()
                .contains("schemaVersion=\"2\""));
    }

    @Test
    void shouldRefuseAnotherSchema() throws IOException {
        String other = example().replace("\"schema\": \"membound-profile\",", "\"schema\": \"something-else\",");
        assertEquals("profile schema must be membound-profile: file=x.json, schema=\"something-else\"",
                assertThrows(BadInputException.class, () -> ProfileJson.read(other, "x.json")).getMessage());
        assertEquals("profile schema must be membound-profile: file=jmh.json, schema=absent",
                assertThrows(BadInputException.class, () -> ProfileJson.read("{\"benchmark\": 1}", "jmh.json"))
                        .getMessage());
    }

    /** Each row: what to replace in the example, what to put instead, and what the message must contain. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            "best": 3350000000000,  | "best": -1,          | best must be a positive finite number: best=-1.0 (file=bad.json, at=devices[0].bandwidth[0].streamBytesPerSecond)
            "best": 3350000000000,  | "best": 0,           | best must be a positive finite number: best=0.0
            "best": 3350000000000,  | "best": "NaN",       | best must be a positive finite number: best=NaN (file=bad.json, at=devices[0].bandwidth[0].streamBytesPerSecond)
            "best": 3350000000000,  | "best": "3e12",      | at=devices[0].bandwidth[0].streamBytesPerSecond.best
            "samples": 50           | "samples": 1.5       | profile value must be a whole number: file=bad.json, at=devices[0].bandwidth[0].streamBytesPerSecond.samples
            "samples": 50           | "samples": 0         | samples must be positive: samples=0
            "hostname": "spark-example", | "hostnme": "spark-example", | profile field must be one of caches, cpu, hostname, jdk, memoryBytes, numaNodes, os, platform, vectorBitWidth: file=bad.json, at=host, field=hostnme
            "hostname": "spark-example", | "hostname": 17,   | profile value must be a string: file=bad.json, at=host.hostname
            "hostname": "spark-example", | "host\\nname": "spark-example", | profile field must be one of caches, cpu, hostname, jdk, memoryBytes, numaNodes, os, platform, vectorBitWidth: file=bad.json, at=host, field=host\\nname
            "hostname": "spark-example", | "hostname": "spark-example", "os\\u2028": 1, | field=os\\u2028
            "level": "L1",          | "level": "L9",       | level must be one of L1, L2, L3, SLC, DRAM: level=L9
            "kind": "example",      | "kind": "guessed",   | provenance.kind must be one of measured, imported, datasheet, user, example: provenance.kind=guessed
            "logicalCpus": 20,      | "logicalCpus": -20,  | cpu.logicalCpus must be positive: cpu.logicalCpus=-20 (file=bad.json, at=host.cpu)
            "createdUtc": "2025-11-29T12:00:00Z" | "createdUtc": "yesterday" | provenance.createdUtc must be an ISO-8601 UTC time such as 2025-11-29T15:57:03Z: provenance.createdUtc=yesterday
            "bandwidthId": "cpu-triad-double-t20-all-l1" | "bandwidthId": "cpu-nothing" | device.levels.bandwidthId must be the id of a bandwidth entry of device cpu: device.levels.bandwidthId=cpu-nothing
            "unifiedMemoryWith": [  | "unifiedMemoryWith": ["tpu", | devices.unifiedMemoryWith must be the id of a device in this profile: devices.unifiedMemoryWith=tpu
            "p95": 3330000000000,   | "p95": 3000000000000, | median must be <= p95: median=3.23E12, p95=3.0E12
            "state": "known",       | "state": "known", "reason": "why not", | memoryBandwidth.reason must be absent when the figure is known
            "hostname": "spark-example", | "hostname": "spark-example", "hostname": "twice", | problem=Duplicate field 'hostname'
            """)
    void shouldNameFileFieldAndValue(String find, String replace, String expected) throws IOException {
        String original = example();
        assertTrue(original.contains(find), "fixture must contain " + find);
        String bad = original.replaceFirst(java.util.regex.Pattern.quote(find),
                java.util.regex.Matcher.quoteReplacement(replace));
        BadInputException e = assertThrows(BadInputException.class, () -> ProfileJson.read(bad, "bad.json"));
        assertTrue(e.getMessage().contains(expected), "message: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().contains("file=bad.json"), "names the file: " + e.getMessage());
    }

    @Test
    void shouldAcceptJmhNaNOnlyForDocumentedStatistics() throws IOException {
        String nan = example().replaceFirst("\"coefficientOfVariation\": 0.031,", "\"coefficientOfVariation\": \"NaN\",")
                .replaceFirst("\"median\": 3230000000000,", "\"median\": \"NaN\",");
        Distribution d = ProfileJson.read(nan, "nan.json").device("cpu").orElseThrow().bandwidth().get(0)
                .streamBytesPerSecond();
        assertNull(d.coefficientOfVariation());
        assertNull(d.median());
        assertEquals(d.mean(), d.typical(), "without a median the mean is the typical figure");
        String word = example().replaceFirst("\"coefficientOfVariation\": 0.031,", "\"coefficientOfVariation\": \"high\",");
        assertThrows(BadInputException.class, () -> ProfileJson.read(word, "word.json"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ''                         | profile must be a JSON object, not an empty file: file=f.json
            '   '                      | profile must be a JSON object, not an empty file: file=f.json
            '[1, 2]'                   | profile must be a JSON object: file=f.json, found=array
            'not json'                 | profile must be valid JSON: file=f.json, line=1, column=1, problem=Unrecognized token 'not'
            '{"schema": "membound-profile", "schemaVersion": 1, "host": {' | profile must be complete JSON (the file ends early): file=f.json
            '{"schema": "membound-profile", "schemaVersion": 1} {}' | profile must be one JSON value with nothing after it: file=f.json, line=1, column=52
            '{"schema": "membound-profile", "schemaVersion": 1}' | host must be present: host=null (file=f.json)
            """)
    void shouldRefuseMalformedFiles(String json, String expected) {
        BadInputException e = assertThrows(BadInputException.class, () -> ProfileJson.read(json, "f.json"));
        assertTrue(e.getMessage().startsWith(expected), "message: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void shouldNameAMissingFile(@TempDir Path dir) {
        Path missing = dir.resolve("nope.json");
        assertEquals("profile must be an existing file: file=" + missing,
                assertThrows(BadInputException.class, () -> ProfileJson.read(missing)).getMessage());
        assertEquals("profile must be a file, not a directory: file=" + dir,
                assertThrows(BadInputException.class, () -> ProfileJson.read(dir)).getMessage());
    }

    @Test
    void shouldRefuseEveryTruncationOfTheExample() throws IOException {
        byte[] full = Files.readAllBytes(EXAMPLE);
        // Every cut but the full file (and the full file less its final newline) is an error, never a profile.
        for (int length = 0; length < full.length - 2; length += 41) {
            byte[] cut = java.util.Arrays.copyOf(full, length);
            BadInputException e = assertThrows(BadInputException.class, () -> ProfileJson.read(cut, "cut.json"),
                    "cut at " + length);
            assertFalse(e.getMessage().contains("\n"));
        }
        assertEquals(ProfileJson.read(full, "full"),
                ProfileJson.read(new String(full, StandardCharsets.UTF_8).strip(), "stripped"));
    }
}
