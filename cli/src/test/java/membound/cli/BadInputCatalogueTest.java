package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input catalogue: for every entry point (command-line flags, profile JSON, config.json, each
 * importer's file) the kinds of bad input users meet — malformed, truncated, empty, wrong types, NaN,
 * negative and zero values, absurd sizes, unknown names. Each must give one line on stderr that names the
 * thing, exit status 2, no stack trace, and nothing written anywhere.
 *
 * <p>Files named in a case are written into a fresh directory first ({@code @name} in an argument stands for
 * that file); the directory is compared before and after.
 */
class BadInputCatalogueTest {

    @TempDir
    Path dir;

    /** One entry of the catalogue: what is given, and a word the error must contain. */
    record Case(String entryPoint, String badInput, List<String> args, Map<String, String> files, String named) {
        @Override
        public String toString() {
            return entryPoint + ": " + badInput;
        }
    }

    static Case of(String entryPoint, String badInput, String named, Map<String, String> files, String... args) {
        return new Case(entryPoint, badInput, List.of(args), files, named);
    }

    static Case of(String entryPoint, String badInput, String named, String... args) {
        return of(entryPoint, badInput, named, Map.of(), args);
    }

    static String example() {
        try {
            return Files.readString(TestProfiles.example());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String exampleWith(String from, String to) {
        String text = example();
        if (!text.contains(from)) {
            throw new IllegalStateException("the example profile must contain " + from);
        }
        return text.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }

    static Stream<Case> catalogue() {
        String example = example();
        List<Case> cases = new ArrayList<>();
        // Command-line flags.
        cases.add(of("membound", "unknown subcommand", "calibrat", "calibrat"));
        cases.add(of("calibrate", "two modes", "--quick", "calibrate", "--quick", "--full"));
        cases.add(of("calibrate", "unknown format", "format", "calibrate", "--smoke", "--format", "xml"));
        cases.add(of("calibrate", "malformed bandwidth", "nominal-bandwidth", "calibrate", "--smoke",
                "--nominal-bandwidth", "fast"));
        cases.add(of("calibrate", "zero bandwidth", "nominal-bandwidth", "calibrate", "--smoke",
                "--nominal-bandwidth", "0GB/s"));
        cases.add(of("calibrate", "unknown platform", "dgx-sprak", "calibrate", "--smoke", "--platform", "dgx-sprak"));
        cases.add(of("predict", "unknown preset", "llama-3.1-8", "predict", "--model", "llama-3.1-8", "--hardware",
                "dgx-spark"));
        cases.add(of("predict", "unknown hardware", "did you mean dgx-spark", "predict", "--model", "gpt2-124m", "--hardware", "dgx"));
        cases.add(of("predict", "zero tokens", "tokens", "predict", "--model", "gpt2-124m", "--hardware", "h100",
                "--tokens", "0"));
        cases.add(of("predict", "negative micro-batch", "microBatchSize=-4", "predict", "--model", "gpt2-124m",
                "--hardware", "h100", "--micro-batch", "-4"));
        cases.add(of("predict", "impossible tensor parallelism", "tensor", "predict", "--model", "llama-3.1-8b",
                "--hardware", "h100", "--tensor-parallel", "7"));
        cases.add(of("predict", "malformed bandwidth what-if", "memory-bandwidth", "predict", "--model", "gpt2-124m",
                "--hardware", "h100", "--memory-bandwidth", "lots"));
        cases.add(of("predict", "unknown precision", "precision", "predict", "--model", "gpt2-124m", "--hardware",
                "h100", "--precision", "fp12"));
        cases.add(of("predict", "missing profile", "profile", "predict", "--model", "gpt2-124m", "--profile",
                "@missing.json"));
        cases.add(of("show", "missing profile", "profile", "show", "@missing.json"));
        cases.add(of("show", "latest of an empty directory", "latest", "show", "latest", "--profiles-dir", "@empty"));
        cases.add(of("compare", "unknown figure", "figure", Map.of("a.json", example), "compare", "@a.json",
                "@a.json", "--figure", "cpu/ceiling/DRAM/triadd"));
        cases.add(of("fleet", "not a directory", "fleet", "fleet", "@nowhere"));
        cases.add(of("import", "unknown tool format", "format", Map.of("out.txt", "x", "a.json", example),
                "import", "--format", "stream9", "@out.txt", "--into", "@a.json"));
        cases.add(of("report", "existing non-empty output", "out", Map.of("a.json", example, "made/keep.txt", "mine"),
                "report", "--profile", "@a.json", "--out", "@made"));
        // Profile JSON.
        cases.add(of("profile", "empty file", "bad.json", Map.of("bad.json", ""), "show", "@bad.json"));
        cases.add(of("profile", "garbage", "bad.json", Map.of("bad.json", "\u0000\u0001garbage{"), "show", "@bad.json"));
        cases.add(of("profile", "truncated", "bad.json", Map.of("bad.json", example.substring(0, example.length() / 2)),
                "show", "@bad.json"));
        cases.add(of("profile", "other schema version", "schemaVersion",
                Map.of("bad.json", exampleWith("\"schemaVersion\": 2", "\"schemaVersion\": 7")), "show", "@bad.json"));
        cases.add(of("profile", "string where a number belongs", "bad.json",
                Map.of("bad.json", exampleWith("\"schemaVersion\": 2", "\"schemaVersion\": \"one\"")),
                "show", "@bad.json"));
        cases.add(of("profile", "NaN bandwidth", "bad.json",
                Map.of("bad.json", example.replaceFirst("\"best\": [0-9.eE+]+", "\"best\": \"NaN\"")),
                "show", "@bad.json"));
        cases.add(of("profile", "negative bandwidth", "best",
                Map.of("bad.json", example.replaceFirst("\"best\": ([0-9])", "\"best\": -$1")),
                "show", "@bad.json"));
        cases.add(of("profile", "zero memory capacity", "capacityBytes",
                Map.of("bad.json", example.replaceFirst("\"capacityBytes\": [0-9]+", "\"capacityBytes\": 0")),
                "show", "@bad.json"));
        cases.add(of("profile", "unknown memory level", "level",
                Map.of("bad.json", example.replaceFirst("\"level\": \"DRAM\"", "\"level\": \"L9\"")),
                "show", "@bad.json"));
        // config.json.
        // No model_type, so no Transformers defaults to fall back on.
        cases.add(of("config.json", "missing fields", "hidden_size",
                Map.of("config.json", "{\"architectures\":[\"LlamaForCausalLM\"]}"),
                "predict", "--model", "@config.json", "--hardware", "h100"));
        cases.add(of("config.json", "wrong type", "config.json",
                Map.of("config.json", "{\"model_type\":\"llama\",\"hidden_size\":\"big\"}"),
                "predict", "--model", "@config.json", "--hardware", "h100"));
        cases.add(of("config.json", "negative layers", "config.json",
                Map.of("config.json", "{\"model_type\":\"llama\",\"hidden_size\":4096,\"num_hidden_layers\":-2,"
                        + "\"num_attention_heads\":32,\"intermediate_size\":14336,\"vocab_size\":128256}"),
                "predict", "--model", "@config.json", "--hardware", "h100"));
        cases.add(of("config.json", "not JSON", "config.json", Map.of("config.json", "hidden_size: 4096"),
                "predict", "--model", "@config.json", "--hardware", "h100"));
        // Each importer's file.
        for (String format : List.of("stream", "babelstream", "likwid", "nvbandwidth", "nccl-tests", "jmh")) {
            cases.add(of("import " + format, "empty file", "out.txt", Map.of("out.txt", "", "a.json", example),
                    "import", "--format", format, "@out.txt", "--into", "@a.json", "--device", "gpu",
                    "--link", "pair", "--link-kind", "network"));
            cases.add(of("import " + format, "garbage", "out.txt",
                    Map.of("out.txt", "Function Best Rate\nCopy: lots\n\u0007", "a.json", example),
                    "import", "--format", format, "@out.txt", "--into", "@a.json", "--device", "gpu",
                    "--link", "pair", "--link-kind", "network"));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void shouldRefuseWithOneLineNamingItExitTwoAndWriteNothing(Case c) throws IOException {
        Files.createDirectories(dir.resolve("empty"));
        for (Map.Entry<String, String> file : c.files().entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
        }
        Map<String, Long> before = snapshot(dir);
        List<String> args = c.args().stream().map(a -> a.startsWith("@") ? dir.resolve(a.substring(1)).toString() : a)
                .toList();

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Membound.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));

        String report = "membound " + String.join(" ", args) + "\nexit " + exit + "\n--- stdout\n" + out + "--- stderr\n"
                + err;
        assertEquals(2, exit, report);
        List<String> lines = err.toString().strip().lines().toList();
        assertEquals(1, lines.size(), report);
        assertTrue(lines.get(0).startsWith("membound: "), report);
        assertTrue(lines.get(0).contains(c.named()), () -> "the error must name " + c.named() + "\n" + report);
        assertFalse(err.toString().contains("\tat "), report);
        assertEquals(before, snapshot(dir), () -> "nothing may be written\n" + report);
    }

    /** Every file and directory under {@code root} with its size: what a command may not change. */
    private static Map<String, Long> snapshot(Path root) throws IOException {
        Map<String, Long> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.toList()) {
                files.put(root.relativize(path).toString(), Files.isRegularFile(path) ? Files.size(path) : -1L);
            }
        }
        return files;
    }
}
