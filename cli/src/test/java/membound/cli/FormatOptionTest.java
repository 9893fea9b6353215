package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every command that prints a result refuses a bad {@code --format} with the same line and status 2. */
class FormatOptionTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"calibrate --smoke", "show @example", "compare @example @example", "fleet @dir",
            "hardware --list", "predict --model gpt2 --hardware h100", "report --profile @example --out @dir/report",
            "validate --summary @dir/none.json", "import --format stream @example --into @example"})
    void shouldRefuseAnythingButTextOrJsonInOneLine(String command) {
        List<String> args = new ArrayList<>();
        for (String word : command.split(" ")) {
            args.add(word.replace("@example", TestProfiles.example().toString()).replace("@dir", dir.toString()));
        }
        args.add("--format");
        args.add("xml");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Membound.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));

        String expected = command.startsWith("import")
                // import's first --format names the tool; a second one must be text or json.
                ? "membound: --format must name one input format (stream, stream-omp, babelstream, likwid, "
                        + "nvbandwidth, nccl-tests, jmh, llm-analysis, calculon): --format=xml"
                : "membound: --format must be text or json: --format=xml";
        assertEquals(expected + "\n", err.toString(), out.toString());
        assertEquals(2, status);
    }
}
