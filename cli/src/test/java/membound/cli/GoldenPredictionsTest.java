package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Predictions pinned to the last printed digit: every profile under {@code golden/profiles} (real CPU profiles of
 * schema 1 and 2 measured on this project's machines, the example and published-figure GPU profiles, a two-Spark
 * profile with an imported nccl-tests link, the minimal report fixture) through the same {@code predict} commands,
 * text and JSON, against the output recorded in {@code golden/expected}. A change to how a profile's ceilings are
 * stored, migrated or read that moves any printed figure fails here; a deliberate change to the model re-records
 * with {@code -Dmembound.golden.record=true} and says in its commit which figures moved and why.
 */
class GoldenPredictionsTest {

    private static final Path PROFILES = Path.of("src/test/resources/golden/profiles");
    private static final Path EXPECTED = Path.of("src/test/resources/golden/expected");
    private static final boolean RECORD = Boolean.getBoolean("membound.golden.record");

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(PROFILES)) {
            for (Path profile : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = profile.getFileName().toString().replace(".json", "");
                String p = profile.toString();
                cases.add(Arguments.of(name + "-train", List.of("predict", "--model", "llama-3.1-8b", "--profile", p)));
                cases.add(Arguments.of(name + "-fp32-json", List.of("predict", "--model", "llama-3.1-8b", "--profile", p,
                        "--precision", "fp32", "--format", "json")));
                cases.add(Arguments.of(name + "-lora-json", List.of("predict", "--model", "llama-3.2-1b", "--profile", p,
                        "--finetune", "lora", "--format", "json")));
                cases.add(Arguments.of(name + "-decode", List.of("predict", "--model", "llama-3.1-8b", "--profile", p,
                        "--decode", "--weights", "Q8_0")));
                cases.add(Arguments.of(name + "-cpu", List.of("predict", "--model", "gpt2", "--profile", p,
                        "--device", "cpu", "--grad-accum", "4")));
                if (name.startsWith("spark-pair")) {
                    cases.add(Arguments.of(name + "-data-parallel", List.of("predict", "--model", "llama-3.1-8b",
                            "--profile", p, "--data-parallel", "2", "--link", "spark-pair", "--finetune", "lora")));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void predictionsStayAsRecorded(String name, List<String> args) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Membound.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        String actual = "$ membound " + String.join(" ", args) + "\nstatus " + status + "\n--- out\n" + out
                + "--- err\n" + err;
        Path expected = EXPECTED.resolve(name + ".txt");
        if (RECORD) {
            Files.createDirectories(EXPECTED);
            Files.writeString(expected, actual, StandardCharsets.UTF_8);
            return;
        }
        assertEquals(Files.readString(expected, StandardCharsets.UTF_8), actual,
                "the prediction moved from the recorded one (" + expected + ")");
    }
}
