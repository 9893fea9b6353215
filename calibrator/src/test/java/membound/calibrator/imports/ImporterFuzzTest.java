package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import membound.calibrator.Fixtures;
import membound.vocabulary.BadInputException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every importer on mangled versions of real outputs (the published ones included): cut, bytes overwritten, lines dropped or doubled,
 * numbers replaced by NaN, negative or huge ones. Whatever comes in, an importer returns figures or
 * throws the one-line {@link BadInputException}; nothing else may escape.
 */
class ImporterFuzzTest {

    record Input(ImportFormat format, Path file) {
    }

    /** The recorded and synthetic fixtures, then every published output (PublishedOutputs). */
    static final List<Input> INPUTS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            new Input(ImportFormat.STREAM, Fixtures.local("stream-c-5.10-2threads-80M.txt")),
            new Input(ImportFormat.STREAM_OMP, Fixtures.local("stream-omp-2threads-16M.txt")),
            new Input(ImportFormat.BABELSTREAM, Fixtures.local("babelstream-5.0-omp-text-double.txt")),
            new Input(ImportFormat.BABELSTREAM, Fixtures.local("babelstream-5.0-omp-csv-float-MiB.txt")),
            new Input(ImportFormat.LIKWID, Fixtures.local("likwid-bench-5.2.2-stream_avx_fma-N-1GB-2.txt")),
            new Input(ImportFormat.NVBANDWIDTH, Fixtures.local("nvbandwidth-v0.8-j-gb10-synthetic.json")),
            new Input(ImportFormat.NCCL_TESTS, Fixtures.local("nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt")),
            new Input(ImportFormat.NCCL_TESTS, Fixtures.local("nccl-tests-old-layout-all_reduce_perf-2x-v100-synthetic.txt")),
            new Input(ImportFormat.JMH, Fixtures.local("jmh-1.37-membound-stream-latency-2threads.json"))),
            PublishedOutputs.rows().stream().map(r -> new Input(r.format(), r.path()))).toList();

    static final List<String> NUMBERS = List.of("NaN", "-1", "0", "1e308", "-0.0", "inf", "", "N/A", "9".repeat(30));

    @Provide
    Arbitrary<Object[]> mangled() {
        return Combinators.combine(Arbitraries.integers().between(0, INPUTS.size() - 1),
                Arbitraries.integers().between(0, 4), Arbitraries.longs()).as((i, kind, seed) -> new Object[] {i, kind, seed});
    }

    @Property(tries = 1000)
    void importersReturnFiguresOrOneLineErrors(@ForAll("mangled") Object[] how) throws IOException {
        Input input = INPUTS.get((Integer) how[0]);
        byte[] bytes = mangle(Files.readAllBytes(input.file()), (Integer) how[1], new Random((Long) how[2]));
        try {
            input.format().parse(bytes, "fuzzed", 0);
        } catch (BadInputException e) {
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        }
    }

    static byte[] mangle(byte[] original, int kind, Random random) {
        switch (kind) {
            case 0 -> {
                return Arrays.copyOf(original, random.nextInt(original.length + 1));
            }
            case 1 -> {
                byte[] b = original.clone();
                for (int n = 1 + random.nextInt(8); n > 0; n--) {
                    b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
                return b;
            }
            case 2, 3 -> {
                List<String> lines = new java.util.ArrayList<>(List.of(new String(original, StandardCharsets.UTF_8)
                        .split("\n", -1)));
                int at = random.nextInt(lines.size());
                if (kind == 2) {
                    lines.remove(at);
                } else {
                    lines.add(at, lines.get(random.nextInt(lines.size())));
                }
                return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
            }
            default -> {
                String text = new String(original, StandardCharsets.UTF_8);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+(\\.\\d+)?(e[+-]?\\d+)?").matcher(text);
                List<int[]> spans = new java.util.ArrayList<>();
                while (m.find()) {
                    spans.add(new int[] {m.start(), m.end()});
                }
                if (spans.isEmpty()) {
                    return original;
                }
                int[] span = spans.get(random.nextInt(spans.size()));
                return (text.substring(0, span[0]) + NUMBERS.get(random.nextInt(NUMBERS.size()))
                        + text.substring(span[1])).getBytes(StandardCharsets.UTF_8);
            }
        }
    }
}
