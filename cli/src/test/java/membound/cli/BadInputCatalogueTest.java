package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import membound.calibrator.run.CalibrationLock;

/**
 * The bad-input catalogue: for every entry point (command-line flags, profile JSON, config.json, each
 * importer's file) the kinds of bad input users meet — malformed, truncated, empty, wrong types, NaN,
 * negative and zero values, absurd sizes, unknown names. Each must give one line on stderr that names the
 * thing, exit status 2, no stack trace, and nothing written anywhere.
 *
 * <p>Files named in a case are written into a fresh directory first ({@code @name} in an argument stands for
 * that file); the directory is compared before and after. {@code %name} stands for one of the hostile files made
 * once for the class ({@link #special}): a FIFO, links to {@code /dev/zero} and {@code /dev/urandom},
 * {@code /dev/null}, a directory, a socket, a sparse file larger than every limit, and (where root can mount
 * them) a read-only and a full tmpfs. Some cases write standard output to {@code /dev/full}; some run in a child
 * JVM under {@code LANG=C} with a non-ASCII file name.
 */
class BadInputCatalogueTest {

    @TempDir
    Path dir;

    /** How a case runs: in this JVM, in this JVM with standard output on /dev/full, or in a child JVM under LANG=C. */
    enum Runner { IN_PROCESS, STDOUT_DEV_FULL, CHILD_LANG_C, CALIBRATION_LOCK_HELD }

    /** One entry of the catalogue: what is given, and a word the error must contain. */
    record Case(String entryPoint, String badInput, List<String> args, Map<String, String> files, String named,
            Runner runner) {
        @Override
        public String toString() {
            return entryPoint + ": " + badInput;
        }
    }

    static Case of(String entryPoint, String badInput, String named, Map<String, String> files, String... args) {
        return new Case(entryPoint, badInput, List.of(args), files, named, Runner.IN_PROCESS);
    }

    static Case run(Runner runner, String entryPoint, String badInput, String named, Map<String, String> files,
            String... args) {
        return new Case(entryPoint, badInput, List.of(args), files, named, runner);
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
        // A value with a line break stays whole on the one line, written as an escape.
        cases.add(of("predict", "unknown flag holding a line break", "Unknown option: '--bad\\nflag'", "predict",
                "--bad\nflag"));
        cases.add(of("predict", "micro-batch holding a line break", "'1\\n2'", "predict", "--model", "gpt2-124m",
                "--hardware", "h100", "--micro-batch", "1\n2"));
        cases.add(of("predict", "preset holding a line break", "model=llama\\u2028x", "predict", "--model",
                "llama\u2028x", "--hardware", "h100"));
        cases.add(of("report", "unknown flag holding a line break", "'--bad\\r\\nflag'", "report", "--profile",
                "@missing.json", "--out", "@out", "--bad\r\nflag"));
        cases.add(of("show", "missing profile", "profile", "show", "@missing.json"));
        // membound trace: not a trace, cut off, ranks of different jobs, a setup against the world size, flags.
        cases.add(of("trace", "not a trace", "trace must be a PyTorch profiler trace",
                Map.of("config.json", "{\"model_type\": \"gpt2\"}"), "trace", "@config.json"));
        cases.add(of("trace", "JSON cut off mid-write", "cut off mid-write",
                Map.of("rank-0.json", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"na"),
                "trace", "@rank-0.json"));
        cases.add(of("trace", "a .gz that is no gzip", "trace must be",
                Map.of("rank-0.json.gz", "not gzip at all"), "trace", "@rank-0.json.gz"));
        cases.add(of("trace", "ranks of different jobs", "one job",
                Map.of("job/a.json", "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 8}, \"traceEvents\": []}",
                        "job/b.json", "{\"distributedInfo\": {\"rank\": 1, \"world_size\": 2}, \"traceEvents\": []}"),
                "trace", "@job"));
        cases.add(of("trace", "setup contradicting the world size", "world_size=8",
                Map.of("a.json", "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 8}, \"traceEvents\": []}"),
                "trace", "@a.json", "--hardware", "h100", "--model", "gpt2"));
        cases.add(of("trace", "missing trace", "trace must be an existing file", "trace", "@missing.json"));
        cases.add(of("trace", "projection without a source machine", "on needs the machine",
                Map.of("a.json", "{\"traceEvents\": []}"), "trace", "@a.json", "--on", "gh200"));
        cases.add(of("trace", "unknown machine to project onto", "gh2000",
                Map.of("a.json", "{\"traceEvents\": []}"), "trace", "@a.json", "--hardware", "h100", "--on", "gh2000"));
        cases.add(of("trace", "decode on a trace", "decode", Map.of("a.json", "{\"traceEvents\": []}"), "trace",
                "@a.json", "--decode"));
        cases.add(of("show", "latest of an empty directory", "latest", "show", "latest", "--profiles-dir", "@empty"));
        cases.add(of("compare", "unknown figure", "figure", Map.of("a.json", example), "compare", "@a.json",
                "@a.json", "--figure", "cpu/ceiling/DRAM/triadd"));
        cases.add(of("fleet", "not a directory", "fleet", "fleet", "@nowhere"));
        // export: an unknown tool, flags that contradict, a profile that cannot give what was asked, an output
        // that exists (the file, its sidecar, or the directory): nothing written, the existing file untouched.
        cases.add(of("export", "unknown tool", "--to=gnez", "export", "--to", "gnez", "--hardware", "dgx-spark",
                "--out", "@e.json"));
        cases.add(of("export", "both --profile and --hardware", "one of --profile or --hardware",
                Map.of("a.json", example), "export", "--to", "genz", "--profile", "@a.json", "--hardware",
                "dgx-spark", "--out", "@e.json"));
        cases.add(of("export", "neither --profile nor --hardware", "one of --profile or --hardware", "export", "--to",
                "genz", "--out", "@e.json"));
        cases.add(of("export", "--measured-only on a catalog entry", "--measured-only needs --profile", "export",
                "--to", "genz", "--hardware", "dgx-spark", "--measured-only", "--out", "@e.json"));
        cases.add(of("export", "unknown hardware", "dgx", "export", "--to", "genz", "--hardware", "dgx", "--out",
                "@e.json"));
        cases.add(of("export", "unknown device of the profile", "device=npu", Map.of("a.json", example), "export",
                "--to", "calculon", "--profile", "@a.json", "--device", "npu", "--out", "@e.json"));
        cases.add(of("export", "output exists", "must not exist", Map.of("e.json", "mine"), "export", "--to",
                "calculon", "--hardware", "dgx-spark", "--out", "@e.json"));
        cases.add(of("export", "llm-analysis sidecar exists", "e.membound.json", Map.of("e.membound.json", "mine"),
                "export", "--to", "llm-analysis", "--hardware", "dgx-spark", "--out", "@e.json"));
        cases.add(of("export", "astra-sim directory exists as a file", "must not exist", Map.of("d", "mine"),
                "export", "--to", "astra-sim", "--hardware", "dgx-spark", "--out", "@d"));
        cases.add(of("export", "--measured-only and a figure the profile never measured", "--measured-only",
                Map.of("g.json", gpuFixture()), "export", "--to", "llm-analysis", "--profile", "@g.json",
                "--measured-only", "--out", "@e.json"));
        cases.add(of("export", "astra-sim for a machine with no link", "no link to another device",
                Map.of("c.json", cpuOnlyProfile()), "export", "--to", "astra-sim", "--profile", "@c.json", "--out",
                "@d"));
        cases.add(of("import", "unknown tool format", "format", Map.of("out.txt", "x", "a.json", example),
                "import", "--format", "stream9", "@out.txt", "--into", "@a.json"));
        cases.add(of("report", "existing non-empty output", "out", Map.of("a.json", example, "made/keep.txt", "mine"),
                "report", "--profile", "@a.json", "--out", "@made"));
        cases.add(of("answer", "existing non-empty output", "out", Map.of("a.json", example, "made/keep.txt", "mine"),
                "answer", "--profile", "@a.json", "--model", "gpt2", "--out", "@made"));
        cases.add(of("answer", "no profile", "profile", "answer", "--model", "gpt2", "--out", "@ans"));
        cases.add(of("answer", "no model", "model", Map.of("a.json", example), "answer", "--profile", "@a.json",
                "--out", "@ans"));
        cases.add(of("answer", "an mlp", "model", Map.of("a.json", example), "answer", "--profile", "@a.json",
                "--mlp", "784,10", "--out", "@ans"));
        cases.add(of("answer", "decode", "decode", Map.of("a.json", example), "answer", "--profile", "@a.json",
                "--model", "gpt2", "--decode", "--out", "@ans"));
        cases.add(of("answer", "no users", "users=0", Map.of("a.json", example), "answer", "--profile", "@a.json",
                "--model", "gpt2", "--users", "0", "--out", "@ans"));
        cases.add(of("answer", "unknown size preset", "llama-9", Map.of("a.json", example), "answer", "--profile",
                "@a.json", "--model", "gpt2", "--sizes", "gpt2,llama-9", "--out", "@ans"));
        cases.add(of("answer", "unknown compared machine", "did you mean", Map.of("a.json", example), "answer",
                "--profile", "@a.json", "--model", "gpt2", "--compare", "h10", "--out", "@ans"));
        // Profile JSON.
        cases.add(of("profile", "empty file", "bad.json", Map.of("bad.json", ""), "show", "@bad.json"));
        cases.add(of("profile", "garbage", "bad.json", Map.of("bad.json", "\u0000\u0001garbage{"), "show", "@bad.json"));
        cases.add(of("profile", "truncated", "bad.json", Map.of("bad.json", example.substring(0, example.length() / 2)),
                "show", "@bad.json"));
        cases.add(of("profile", "other schema version", "schemaVersion",
                Map.of("bad.json", exampleWith("\"schemaVersion\": 4", "\"schemaVersion\": 7")), "show", "@bad.json"));
        cases.add(of("profile", "string where a number belongs", "bad.json",
                Map.of("bad.json", exampleWith("\"schemaVersion\": 4", "\"schemaVersion\": \"one\"")),
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
        // Accepted with exit 0 before (issue 33): a required shape given as null, a stream.c table with a kernel
        // twice and one missing, the repository's own stream-omp output, and an nccl-tests log cut off in its table.
        cases.add(of("config.json", "hidden_size null", "hidden_size=null",
                Map.of("config.json", "{\"model_type\":\"llama\",\"hidden_size\":null,\"num_hidden_layers\":32,"
                        + "\"num_attention_heads\":32,\"intermediate_size\":14336,\"vocab_size\":128256}"),
                "predict", "--model", "@config.json", "--hardware", "h100"));
        String scale = streamOutput().lines().filter(l -> l.startsWith("Scale:")).findFirst().orElseThrow();
        String copy = streamOutput().lines().filter(l -> l.startsWith("Copy:")).findFirst().orElseThrow();
        cases.add(of("import stream", "two Copy rows and no Scale", "Copy, Scale, Add and Triad once",
                Map.of("out.txt", streamOutput().replace(scale, copy), "a.json", example),
                "import", "--format", "stream", "@out.txt", "--into", "@a.json"));
        cases.add(of("import stream", "the repository's stream-omp output", "give --format stream-omp",
                Map.of("out.txt", "tool=stream-omp kernel=triad elements=80000000 threads=2 passes=10 libc=0 "
                        + "stream_bytes_per_pass=1920000000 best_seconds=0.080000 median_seconds=0.081000 "
                        + "best_GBps=24.00 median_GBps=23.70\n", "a.json", example),
                "import", "--format", "stream", "@out.txt", "--into", "@a.json"));
        String omp = "tool=stream-omp kernel=triad elements=16777216 threads=2 passes=10 libc=0 "
                + "stream_bytes_per_pass=402653184 best_seconds=0.026993 median_seconds=0.051740 best_GBps=14.92 "
                + "median_GBps=7.78\n";
        cases.add(of("import stream-omp", "an edited rate", "best_GBps",
                Map.of("out.txt", omp.replace("best_GBps=14.92", "best_GBps=41.92"), "a.json", example),
                "import", "--format", "stream-omp", "@out.txt", "--into", "@a.json"));
        cases.add(of("import stream-omp", "a kernel run twice", "one line per kernel",
                Map.of("out.txt", omp + omp, "a.json", example), "import", "--format", "stream-omp", "@out.txt",
                "--into", "@a.json"));
        String cut = String.join("\n", ncclOutput().lines().limit(26).toList()) + "\n";
        cases.add(of("import nccl-tests", "log cut off inside its table", "--partial",
                Map.of("nccl.txt", cut, "a.json", example), "import", "--format", "nccl-tests", "@nccl.txt", "--into",
                "@a.json", "--link", "spark-pair"));
        // Another estimator's hardware file (llm-analysis, Calculon): a key the tool does not read, a figure it
        // would stop on or divide by, a table that breaks Calculon's asserts, the other tool's file, flags that place
        // figures into a profile, an output that exists or is missing.
        String gpu = llmAnalysisGpuFile();
        String system = calculonSystemFile();
        cases.add(of("import llm-analysis", "a key GPUConfig lacks", "peak_bf16_TFLOPS must be a key llm-analysis reads",
                Map.of("g.json", gpu.replace("\"peak_fp16_TFLOPS\": 250,", "\"peak_fp16_TFLOPS\": 250, "
                        + "\"peak_bf16_TFLOPS\": 250,")), "import", "--format", "llm-analysis", "@g.json", "--output",
                "@n.json"));
        cases.add(of("import llm-analysis", "zero bandwidth", "hbm_bandwidth_in_GB_per_sec must be a positive number",
                Map.of("g.json", gpu.replace("\"hbm_bandwidth_in_GB_per_sec\": 1500", "\"hbm_bandwidth_in_GB_per_sec\": 0")),
                "import", "--format", "llm-analysis", "@g.json", "--output", "@n.json"));
        cases.add(of("import llm-analysis", "negative memory", "mem_per_GPU_in_GB=-48",
                Map.of("g.json", gpu.replace("\"mem_per_GPU_in_GB\": 48", "\"mem_per_GPU_in_GB\": -48")),
                "import", "--format", "llm-analysis", "@g.json", "--output", "@n.json"));
        cases.add(of("import llm-analysis", "a required key missing", "peak_fp16_TFLOPS must be given",
                Map.of("g.json", gpu.replace("\"peak_fp16_TFLOPS\": 250,", "")), "import", "--format",
                "llm-analysis", "@g.json", "--output", "@n.json"));
        cases.add(of("import llm-analysis", "a Calculon system file", "give --format calculon",
                Map.of("s.json", system), "import", "--format", "llm-analysis", "@s.json", "--output", "@n.json"));
        cases.add(of("import llm-analysis", "a stream.c output", "give --format stream",
                Map.of("out.txt", streamOutput()), "import", "--format", "llm-analysis", "@out.txt", "--output",
                "@n.json"));
        cases.add(of("import llm-analysis", "a membound profile", "not a membound profile",
                Map.of("a.json", example), "import", "--format", "llm-analysis", "@a.json", "--output", "@n.json"));
        cases.add(of("import llm-analysis", "output exists", "--output must not exist",
                Map.of("g.json", gpu, "n.json", "mine"), "import", "--format", "llm-analysis", "@g.json", "--output",
                "@n.json"));
        cases.add(of("import llm-analysis", "no --output", "--output must be given",
                Map.of("g.json", gpu), "import", "--format", "llm-analysis", "@g.json"));
        cases.add(of("import llm-analysis", "--into a profile", "--into must not be given",
                Map.of("g.json", gpu, "a.json", example), "import", "--format", "llm-analysis", "@g.json", "--into",
                "@a.json", "--output", "@n.json"));
        cases.add(of("import llm-analysis", "--link-kind", "--link-kind must not be given",
                Map.of("g.json", gpu), "import", "--format", "llm-analysis", "@g.json", "--link-kind", "nvlink",
                "--output", "@n.json"));
        cases.add(of("import calculon", "thresholds rising", "matrix.float16.gflops_efficiency[1][0] must be below",
                Map.of("s.json", system.replace("[[100, 0.9], [10, 0.8], [0, 0.2]]", "[[10, 0.9], [100, 0.8], [0, 0.2]]")),
                "import", "--format", "calculon", "@s.json", "--output", "@n.json"));
        cases.add(of("import calculon", "an efficiency above 1", "mem1.MB_efficiency[0][1] must be an efficiency in (0, 1]",
                Map.of("s.json", system.replace("[[100, 0.85], [0, 0.3]]", "[[100, 1.85], [0, 0.3]]")),
                "import", "--format", "calculon", "@s.json", "--output", "@n.json"));
        cases.add(of("import calculon", "a table not ending at 0", "must end at a threshold of 0",
                Map.of("s.json", system.replace("[[100, 0.9], [10, 0.8], [0, 0.2]]", "[[100, 0.9], [10, 0.8]]")),
                "import", "--format", "calculon", "@s.json", "--output", "@n.json"));
        cases.add(of("import calculon", "a network key Calculon lacks", "networks[0].name must be a key Calculon reads",
                Map.of("s.json", system.replace("\"must_be_filled\": true,", "\"must_be_filled\": true, \"name\": \"x\",")),
                "import", "--format", "calculon", "@s.json", "--output", "@n.json"));
        cases.add(of("import calculon", "a negative bandwidth", "mem1.GBps must be a positive number",
                Map.of("s.json", system.replace("\"GBps\": 3000", "\"GBps\": -3000")),
                "import", "--format", "calculon", "@s.json", "--output", "@n.json"));
        cases.add(of("import calculon", "an llm-analysis GPU file", "give --format llm-analysis",
                Map.of("g.json", gpu), "import", "--format", "calculon", "@g.json", "--output", "@n.json"));
        cases.add(of("import calculon", "output exists", "--output must not exist",
                Map.of("s.json", system, "n.json", "mine"), "import", "--format", "calculon", "@s.json", "--output",
                "@n.json"));
        cases.add(of("predict", "--compare with a missing profile", "missing.json", "predict", "--model", "gpt2-124m",
                "--compare", "h100,profile:@missing.json"));
        cases.add(of("predict", "--compare with profile: naming nothing", "profile:FILE", "predict", "--model",
                "gpt2-124m", "--compare", "h100,profile:"));
        for (String format : List.of("llm-analysis", "calculon")) {
            cases.add(of("import " + format, "empty file", "out.txt", Map.of("out.txt", ""), "import", "--format",
                    format, "@out.txt", "--output", "@n.json"));
            cases.add(of("import " + format, "garbage", "out.txt",
                    Map.of("out.txt", "Function Best Rate\nCopy: lots\n\u0007"), "import", "--format", format,
                    "@out.txt", "--output", "@n.json"));
        }
        // Each importer's file.
        for (String format : List.of("stream", "stream-omp", "babelstream", "likwid", "nvbandwidth", "nccl-tests", "jmh")) {
            cases.add(of("import " + format, "empty file", "out.txt", Map.of("out.txt", "", "a.json", example),
                    "import", "--format", format, "@out.txt", "--into", "@a.json", "--device", "gpu",
                    "--link", "pair", "--link-kind", "network"));
            cases.add(of("import " + format, "garbage", "out.txt",
                    Map.of("out.txt", "Function Best Rate\nCopy: lots\n\u0007", "a.json", example),
                    "import", "--format", format, "@out.txt", "--into", "@a.json", "--device", "gpu",
                    "--link", "pair", "--link-kind", "network"));
        }
        hostileFiles(cases, example);
        contradictoryFlags(cases);
        outputs(cases, example);
        return cases.stream();
    }

    /** The hostile files, each with the words its refusal must contain. */
    static final Map<String, String> SPECIAL_KINDS = new java.util.LinkedHashMap<>();

    static {
        SPECIAL_KINDS.put("fifo.json", "FIFO");
        SPECIAL_KINDS.put("zero.json", "character device");
        SPECIAL_KINDS.put("urandom.json", "character device");
        SPECIAL_KINDS.put("null.json", "character device");
        SPECIAL_KINDS.put("dir.json", "dir.json"); // a directory, or for --model the config.json it lacks
        SPECIAL_KINDS.put("socket.json", "socket");
        SPECIAL_KINDS.put("huge.json", "must be at most");
    }

    /** Hostile contents for every reader of JSON: each must be refused in one line naming the problem. */
    static Map<String, String[]> hostileJson(String example) {
        Map<String, String[]> kinds = new java.util.LinkedHashMap<>();
        kinds.put("nested 10,000 deep", new String[] {"[".repeat(10_000) + "]".repeat(10_000), "nest"});
        kinds.put("object nested 100 deep", new String[] {"{\"a\":".repeat(100) + "1" + "}".repeat(100), "nest"});
        kinds.put("duplicate key", new String[] {"{\"schema\": \"membound-profile\", \"schema\": \"x\"}",
                "Duplicate field"});
        kinds.put("invalid UTF-8", new String[] {"{\"a\": \"\udc80\"}", "bad.json"});
        kinds.put("NUL bytes", new String[] {"\u0000\u0000\u0000", "bad.json"});
        return kinds;
    }

    /** Every reader of a file a user names, as arguments with {@code FILE} standing for the file. */
    static List<String[]> readers() {
        List<String[]> readers = new ArrayList<>();
        readers.add(new String[] {"show", "show", "FILE"});
        readers.add(new String[] {"show --format json", "show", "FILE", "--format", "json"});
        readers.add(new String[] {"compare (first)", "compare", "FILE", "@a.json"});
        readers.add(new String[] {"compare (second)", "compare", "@a.json", "FILE"});
        readers.add(new String[] {"predict --profile", "predict", "--model", "gpt2-124m", "--profile", "FILE"});
        readers.add(new String[] {"predict --model config", "predict", "--model", "FILE", "--hardware", "h100"});
        readers.add(new String[] {"report --profile", "report", "--profile", "FILE", "--out", "@r"});
        readers.add(new String[] {"report --model config", "report", "--profile", "@a.json", "--model", "FILE",
                "--out", "@r"});
        readers.add(new String[] {"import --into", "import", "--format", "stream", "@out.txt", "--into", "FILE"});
        readers.add(new String[] {"validate --summary", "validate", "--summary", "FILE"});
        readers.add(new String[] {"export --profile", "export", "--to", "calculon", "--profile", "FILE", "--out",
                "@e.json"});
        for (String format : List.of("stream", "stream-omp", "babelstream", "likwid", "nvbandwidth", "nccl-tests", "jmh")) {
            readers.add(new String[] {"import " + format, "import", "--format", format, "FILE", "--into", "@a.json",
                    "--device", "gpu", "--link", "pair", "--link-kind", "network"});
        }
        for (String format : List.of("llm-analysis", "calculon")) {
            readers.add(new String[] {"import " + format, "import", "--format", format, "FILE", "--output", "@n.json"});
        }
        readers.add(new String[] {"predict --compare profile:", "predict", "--model", "gpt2-124m", "--compare",
                "h100,profile:FILE"});
        return readers;
    }

    /** An llm-analysis GPU file (GPUConfig's keys) that imports; the figures are made up for the test. */
    static String llmAnalysisGpuFile() {
        return """
                {"name": "test-gpu", "mem_per_GPU_in_GB": 48, "hbm_bandwidth_in_GB_per_sec": 1500,
                 "intra_node_bandwidth_in_GB_per_sec": 200, "intra_node_min_message_latency": 5e-06,
                 "peak_fp16_TFLOPS": 250, "peak_i8_TFLOPS": 500, "inter_node_bandwidth_in_GB_per_sec": 50}
                """;
    }

    /** A Calculon system file that imports; the figures are made up for the test. */
    static String calculonSystemFile() {
        return """
                {"matrix": {"float16": {"tflops": 400, "gflops_efficiency": [[100, 0.9], [10, 0.8], [0, 0.2]]}},
                 "vector": {"float32": {"tflops": 50, "gflops_efficiency": [[0, 0.5]]}},
                 "mem1": {"GiB": 64, "GBps": 3000, "MB_efficiency": [[100, 0.85], [0, 0.3]]},
                 "mem2": {"GiB": 0, "GBps": 40, "MB_efficiency": [[0, 0.5]]},
                 "processing_mode": "roofline",
                 "networks": [{"bandwidth": 400, "efficiency": 0.75, "size": 8, "latency": 0.00001,
                   "ops": {"p2p": [1.0, null], "reduce_scatter": [1.5, -1], "all_gather": [1.5, -1],
                           "all_reduce": [2.0, -1]}, "must_be_filled": true, "processor_usage": 0.1}]}
                """;
    }

    /** The GB10 fixture made from published measurements (a GPU, no links). */
    static String gpuFixture() {
        try {
            return Files.readString(GpuPredictTest.FIXTURE);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A real CPU-only profile of the development machine: no GPU, no link, no catalog platform. */
    static String cpuOnlyProfile() {
        try {
            return Files.readString(TestProfiles.root().resolve("docs/records/profiles/vm-20261130T001543Z.json"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A real stream.c output (the importers' fixture), which imports: what reaches --output. */
    static String streamOutput() {
        return fixture("stream-c-5.10-2threads-80M.txt");
    }

    /** An NCCL tests output that imports as a link. */
    static String ncclOutput() {
        return fixture("nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt");
    }

    private static String fixture(String name) {
        try {
            return Files.readString(TestProfiles.root().resolve("calibrator/src/test/resources/fixtures").resolve(name));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String[] withFile(String[] reader, String file) {
        return java.util.Arrays.stream(reader).skip(1).map(a -> a.equals("FILE") ? file
                : a.replace("profile:FILE", "profile:" + file)).toArray(String[]::new);
    }

    private static void hostileFiles(List<Case> cases, String example) {
        Map<String, String> base = Map.of("a.json", example, "out.txt", "Copy: 1000.0 0.1 0.1 0.1\n");
        for (String[] reader : readers()) {
            for (Map.Entry<String, String> kind : SPECIAL_KINDS.entrySet()) {
                cases.add(of(reader[0], kind.getKey().replace(".json", "") + " given as the file", kind.getValue(), base,
                        withFile(reader, "%" + kind.getKey())));
            }
            boolean json = !reader[0].startsWith("import ") || reader[0].equals("import nvbandwidth")
                    || reader[0].equals("import jmh") || reader[0].equals("import llm-analysis")
                    || reader[0].equals("import calculon");
            if (json) {
                for (Map.Entry<String, String[]> kind : hostileJson(example).entrySet()) {
                    Map<String, String> files = new java.util.HashMap<>(base);
                    files.put("bad.json", kind.getValue()[0]);
                    cases.add(of(reader[0], kind.getKey(), kind.getValue()[1], files, withFile(reader, "@bad.json")));
                }
            }
        }
        // Text tool outputs: not UTF-8, or larger than the limit (an absurd line count is the sparse file above).
        for (String format : List.of("stream", "stream-omp", "babelstream", "likwid", "nccl-tests")) {
            cases.add(of("import " + format, "invalid UTF-8", "UTF-8",
                    Map.of("a.json", example, "out.bin", "Copy: \udc80"), "import", "--format", format, "@out.bin",
                    "--into", "@a.json", "--device", "gpu", "--link", "pair", "--link-kind", "network"));
        }
        cases.add(of("config.json", "duplicate key", "Duplicate field",
                Map.of("config.json", "{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_embd\":769}"),
                "predict", "--model", "@config.json", "--hardware", "h100"));
        cases.add(of("profile", "duplicate key deep inside", "Duplicate field",
                Map.of("bad.json", exampleWith("\"schemaVersion\": 4", "\"schemaVersion\": 4, \"schemaVersion\": 4")),
                "show", "@bad.json"));
        cases.add(of("import --from", "a device the profile lacks", "from=nosuch", Map.of("a.json", example,
                "nccl.txt", ncclOutput()), "import", "--format", "nccl-tests", "@nccl.txt", "--into", "@a.json", "--from",
                "nosuch", "--output", "@n.json"));
        cases.add(of("fleet", "a FIFO as the directory", "fleet", "fleet", "%fifo.json"));
        cases.add(of("fleet", "a directory without profiles", "profiles", "fleet", "%dir.json"));
        // Paths that are no paths.
        for (String[] flag : List.of(new String[] {"report", "--out"}, new String[] {"calibrate", "--profiles-dir"},
                new String[] {"show", "--profiles-dir"}, new String[] {"import", "--output"},
                new String[] {"validate", "--results-dir"}, new String[] {"fleet", ""})) {
            List<String> args = new ArrayList<>(List.of(flag[0]));
            if (!flag[1].isEmpty()) {
                args.add(flag[1]);
            }
            args.add("");
            args.addAll(switch (flag[0]) {
                case "report" -> List.of("--profile", "@a.json");
                case "calibrate" -> List.of("--smoke");
                case "show" -> List.of("latest");
                case "import" -> List.of("--format", "stream", "@out.txt", "--into", "@a.json");
                default -> List.<String>of();
            });
            cases.add(of(flag[0] + " " + flag[1], "empty path", "empty", base, args.toArray(String[]::new)));
        }
        cases.add(of("report --out", "name longer than NAME_MAX", "File name too long", base, "report", "--profile",
                "@a.json", "--out", "@" + "n".repeat(300)));
        cases.add(of("report --out", "80,000-character path", "out", base, "report", "--profile", "@a.json", "--out",
                "@" + "d/".repeat(40_000)));
        cases.add(of("report --out", "under a file", "out", base, "report", "--profile", "@a.json", "--out",
                "@a.json/r"));
        cases.add(of("calibrate --profiles-dir", "under a file", "profile directory", base, "calibrate", "--smoke",
                "--profiles-dir", "@a.json/p"));
        for (String[] jvm : List.of(new String[] {"/bin/ls", "java.specification.version"},
                new String[] {"@nosuch/java", "no such file"}, new String[] {"%dir.json", "executable"},
                new String[] {"@a.json", "executable"}, new String[] {"%null.json", "executable"})) {
            cases.add(of("calibrate --jvm", "not a java: " + jvm[0], jvm[1], base, "calibrate", "--smoke", "--jvm",
                    jvm[0]));
        }
        // Names that LANG=C cannot hold: a child JVM with that locale, for each kind of path argument.
        for (String[] args : List.of(new String[] {"show", "@\u00e9t\u00e9.json"},
                new String[] {"predict", "--model", "@mod\u00e8le.json", "--hardware", "h100"},
                new String[] {"report", "--profile", "@a.json", "--out", "@r\u00e9sultat"})) {
            cases.add(run(Runner.CHILD_LANG_C, args[0], "non-ASCII name under LANG=C", "LANG=C.UTF-8", base, args));
        }
    }

    /** Flags that contradict each other or the model's limits. */
    private static void contradictoryFlags(List<Case> cases) {
        String[] training = {"--model", "gpt2-124m", "--hardware", "h100"};
        List<String[]> flags = new ArrayList<>();
        for (String[] decodeOnly : List.of(new String[] {"--weights", "Q8_0"}, new String[] {"--context", "100"},
                new String[] {"--batch", "4"}, new String[] {"--prompt", "64"}, new String[] {"--kv-precision", "fp8"})) {
            flags.add(new String[] {decodeOnly[0] + " without --decode", decodeOnly[0].substring(2), decodeOnly[0],
                    decodeOnly[1]});
        }
        for (String[] trainingOnly : List.of(new String[] {"--grad-accum", "4"}, new String[] {"--optimizer", "sgd"},
                new String[] {"--tokens", "1B"}, new String[] {"--steps", "10"}, new String[] {"--micro-batch", "2"},
                new String[] {"--seq-len", "512"}, new String[] {"--checkpointing", "full"},
                new String[] {"--finetune", "lora"}, new String[] {"--zero", "1"}, new String[] {"--pruning", "2:4"},
                new String[] {"--offload", "optimizer"}, new String[] {"--optimizer-precision", "bf16"},
                new String[] {"--data-parallel", "2"}, new String[] {"--operations", "3"})) {
            flags.add(new String[] {"--decode with " + trainingOnly[0], trainingOnly[0].substring(2), "--decode",
                    trainingOnly[0], trainingOnly[1]});
        }
        flags.add(new String[] {"--lora-rank without LoRA", "lora-rank", "--lora-rank", "8"});
        flags.add(new String[] {"--lora-targets without LoRA", "lora-targets", "--lora-targets", "q,v"});
        flags.add(new String[] {"--zero 3 with one replica", "zero", "--zero", "3"});
        flags.add(new String[] {"--device without --profile", "device", "--device", "nosuch"});
        flags.add(new String[] {"LoRA rank 10^9 on a 768-wide model", "hidden size", "--finetune", "lora",
                "--lora-rank", "1000000000"});
        flags.add(new String[] {"tokens per step beyond 2^53", "2^53", "--micro-batch", "2147483647", "--seq-len", "1024",
                "--grad-accum", "2147483647"});
        flags.add(new String[] {"total shorter than one step", "one optimizer step", "--tokens", "100"});
        flags.add(new String[] {"sequence beyond max_position_embeddings", "max_position_embeddings", "--seq-len",
                "4096"});
        flags.add(new String[] {"--memory-bandwidth for an unknown machine", "nosuch", "--memory-bandwidth",
                "nosuch:1TB/s"});
        flags.add(new String[] {"--peak-flops for an unknown machine", "nosuch", "--peak-flops", "nosuch:bf16=1T"});
        flags.add(new String[] {"--link that the machine lacks", "link", "--data-parallel", "2", "--link", "nosuch"});
        flags.add(new String[] {"--trainer unknown", "megatron", "--trainer", "megatorn"});
        flags.add(new String[] {"--zero 3 with llm.c (ZeRO 0-1)", "zero must be at most 1", "--trainer", "llm.c",
                "--data-parallel", "8", "--zero", "3"});
        flags.add(new String[] {"--pipeline-parallel with llm-foundry", "pipeline-parallel must be 1", "--trainer",
                "llm-foundry", "--pipeline-parallel", "2"});
        flags.add(new String[] {"--nodes that do not divide the devices", "nodes must divide", "--data-parallel", "6",
                "--nodes", "4"});
        flags.add(new String[] {"--nodes x --gpus-per-node not the devices", "nodes x gpus-per-node", "--data-parallel",
                "16", "--nodes", "2", "--gpus-per-node", "4"});
        flags.add(new String[] {"--tensor-parallel wider than a node", "gpus-per-node", "--tensor-parallel", "4",
                "--data-parallel", "2", "--nodes", "4"});
        flags.add(new String[] {"--link with one device", "link=nosuch", "--link", "nosuch"});
        flags.add(new String[] {"--expert-parallel on a dense model", "expert parallelism needs a mixture of experts",
                "--data-parallel", "2", "--expert-parallel", "2"});
        flags.add(new String[] {"--virtual-stages without a pipeline", "virtual pipeline stages need pipeline "
                + "parallelism", "--virtual-stages", "2"});
        flags.add(new String[] {"--context-parallel that does not divide the sequence", "context-parallel must divide "
                + "the sequence length", "--context-parallel", "3"});
        flags.add(new String[] {"--recompute-modules without selective checkpointing", "recompute modules need "
                + "selective checkpointing", "--recompute-modules", "layernorm"});
        flags.add(new String[] {"--recompute-modules unknown", "recompute modules must be among", "--checkpointing",
                "selective", "--recompute-modules", "layernorms"});
        flags.add(new String[] {"--shard-group without ZeRO-3", "needs ZeRO stage 3", "--data-parallel", "4",
                "--shard-group", "2"});
        flags.add(new String[] {"--attention-kernel unknown", "attention kernel must be fa2, fa3 or cudnn",
                "--attention-kernel", "fa4"});
        flags.add(new String[] {"--moe-dispatcher unknown", "moe dispatcher must be fused, flex, deepep, hybridep or "
                + "alltoall: moe-dispatcher=allgather", "--moe-dispatcher", "allgather"});
        flags.add(new String[] {"--moe-dispatcher alltoall with a trainer that has no such dispatcher", "moe-dispatcher "
                + "must be fused with trainer llm-foundry", "--trainer", "llm-foundry", "--moe-dispatcher", "alltoall"});
        flags.add(new String[] {"--memory-bandwidth for a machine not in the run", "dgx-spark", "--memory-bandwidth",
                "dgx-spark:1TB/s"});
        flags.add(new String[] {"--peak-flops for a machine not in the run", "h200:bf16=1P", "--peak-flops",
                "h200:bf16=1P"});
        for (String[] flag : flags) {
            List<String> args = new ArrayList<>(List.of("predict"));
            args.addAll(List.of(training));
            args.addAll(List.of(flag).subList(2, flag.length));
            cases.add(of("predict", flag[0], flag[1], args.toArray(String[]::new)));
        }
        cases.add(of("predict", "--operations -1", "operations", "predict", "--model", "gpt2-124m", "--hardware",
                "h100", "--operations", "-1"));
        cases.add(of("predict", "--compare with an unknown machine", "nosuch", "predict", "--model", "gpt2-124m",
                "--compare", "h100,nosuch"));
        cases.add(of("predict", "--trainer with --decode", "trainer", "predict", "--model", "gpt2-124m", "--hardware",
                "h100", "--decode", "--trainer", "megatron"));
        // The report takes predict's flags and must refuse the same contradictions.
        for (String[] flag : flags.subList(0, 5)) {
            List<String> args = new ArrayList<>(List.of("report", "--profile", "@a.json", "--model", "gpt2-124m",
                    "--out", "@r"));
            args.addAll(List.of(flag).subList(2, flag.length));
            cases.add(of("report", flag[0], flag[1], Map.of("a.json", example()), args.toArray(String[]::new)));
        }
    }

    /** Outputs that cannot be written: standard output on /dev/full, read-only and full file systems, the lock. */
    private static void outputs(List<Case> cases, String example) {
        Map<String, String> base = Map.of("a.json", example, "out.txt", streamOutput(), "f/a.json", example,
                "f/b.json", example);
        List<String[]> printing = List.of(new String[] {"show", "show", "@a.json"},
                new String[] {"show --format json", "show", "@a.json", "--format", "json"},
                new String[] {"compare", "compare", "@a.json", "@a.json"},
                new String[] {"compare --format json", "compare", "@a.json", "@a.json", "--format", "json"},
                new String[] {"hardware --list", "hardware", "--list"},
                new String[] {"hardware --list --format json", "hardware", "--list", "--format", "json"},
                new String[] {"hardware --platform", "hardware", "--platform", "dgx-spark"},
                new String[] {"predict", "predict", "--model", "gpt2-124m", "--hardware", "h100"},
                new String[] {"predict --format json", "predict", "--model", "gpt2-124m", "--hardware", "h100",
                        "--format", "json"},
                new String[] {"predict --decode", "predict", "--model", "gpt2-124m", "--hardware", "h100", "--decode"},
                new String[] {"predict --compare", "predict", "--model", "gpt2-124m", "--compare", "h100,dgx-spark"},
                new String[] {"predict --profile", "predict", "--model", "gpt2-124m", "--profile", "@a.json"},
                new String[] {"fleet", "fleet", "@f"},
                new String[] {"fleet --format json", "fleet", "@f", "--format", "json"},
                new String[] {"help", "--help"});
        for (String[] command : printing) {
            cases.add(run(Runner.STDOUT_DEV_FULL, command[0], "standard output on /dev/full", "standard output", base,
                    java.util.Arrays.copyOfRange(command, 1, command.length)));
        }
        for (String fs : List.of("ro", "full")) {
            String named = fs.equals("ro") ? "Read-only file system" : "No space left on device";
            cases.add(of("report --out", fs + " file system", named, base, "report", "--profile", "@a.json", "--out",
                    "%" + fs + "/r"));
            cases.add(of("calibrate --profiles-dir", fs + " file system", named, base, "calibrate", "--smoke",
                    "--profiles-dir", "%" + fs + "/p"));
            cases.add(of("calibrate --profiles-dir", fs + " file system itself", named, base, "calibrate", "--smoke",
                    "--profiles-dir", "%" + fs));
            cases.add(of("import --output", fs + " file system", fs.equals("ro") ? "Read-only" : "No space", base,
                    "import", "--format", "stream", "@out.txt", "--into", "@a.json", "--output", "%" + fs + "/n.json"));
        }
        cases.add(of("report --out", "/dev/full as a directory", "out", base, "report", "--profile", "@a.json", "--out",
                "/dev/full/r"));
        cases.add(run(Runner.CALIBRATION_LOCK_HELD, "calibrate", "another calibration holds the lock",
                "calibration lock must be free", base, "calibrate", "--smoke", "--profiles-dir", "@p"));
        cases.add(run(Runner.CALIBRATION_LOCK_HELD, "validate", "a calibration holds the lock",
                "calibration lock must be free", base, "validate", "--profile", "@a.json", "--workloads", "adamw",
                "--results-dir", "@v"));
    }

    /** The hostile files of {@link #SPECIAL_KINDS}, made once; {@code ro} and {@code full} are tmpfs mounts. */
    @TempDir
    static Path special;

    /** Why the tmpfs cases cannot run here, or null when both file systems are mounted. */
    private static String noTmpfs;

    private static ServerSocketChannel socket;

    private static Path lockFile;

    @BeforeAll
    static void makeHostileFiles() throws Exception {
        Path fifo = special.resolve("fifo.json");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor(), "mkfifo");
        Files.createSymbolicLink(special.resolve("zero.json"), Path.of("/dev/zero"));
        Files.createSymbolicLink(special.resolve("urandom.json"), Path.of("/dev/urandom"));
        Files.createSymbolicLink(special.resolve("null.json"), Path.of("/dev/null"));
        Files.createDirectories(special.resolve("dir.json"));
        socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        socket.bind(UnixDomainSocketAddress.of(special.resolve("socket.json")));
        try (RandomAccessFile huge = new RandomAccessFile(special.resolve("huge.json").toFile(), "rw")) {
            huge.setLength(1L << 30); // sparse: a gibibyte that takes no disk
        }
        noTmpfs = mountTmpfs();
        // A calibration lock of this class's own, held by the lock case: the other calibrations never wait on it.
        lockFile = special.resolve("calibration.lock");
        System.setProperty("membound.calibrationLock", lockFile.toString());
    }

    /** A read-only tmpfs {@code ro} and a full one {@code full}; without root (or mount) the reason they are missing. */
    private static String mountTmpfs() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "mounting a tmpfs needs root; user.name=" + System.getProperty("user.name");
        }
        for (String fs : List.of("ro", "full")) {
            Path at = Files.createDirectories(special.resolve(fs));
            Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=16k" + (fs.equals("ro") ? ",ro" : ""),
                    "tmpfs", at.toString()).redirectErrorStream(true).start();
            String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (mount.waitFor() != 0) {
                return "mount -t tmpfs failed (a container without CAP_SYS_ADMIN?): " + output;
            }
        }
        // Fill the full one: the write that does not fit fails, and what fitted stays.
        try (var fill = Files.newOutputStream(special.resolve("full/fill"))) {
            fill.write(new byte[64 << 10]);
        } catch (IOException expected) {
            // No space left on device: now it is full.
        }
        return null;
    }

    @AfterAll
    static void removeHostileFiles() throws Exception {
        System.clearProperty("membound.calibrationLock");
        socket.close();
        if (noTmpfs == null) {
            for (String fs : List.of("ro", "full")) {
                new ProcessBuilder("umount", special.resolve(fs).toString()).inheritIO().start().waitFor();
            }
        }
    }

    @Test
    void shouldHoldAtLeastThreeHundredCases() {
        long count = catalogue().count();
        System.out.println("bad-input catalogue: " + count + " cases");
        assertTrue(count >= 300, "the catalogue must hold at least 300 cases: cases=" + count);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void shouldRefuseWithOneLineNamingItExitTwoAndWriteNothing(Case c) throws Exception {
        boolean tmpfs = c.args().stream().anyMatch(a -> a.startsWith("%ro") || a.startsWith("%full"));
        Assumptions.assumeTrue(!tmpfs || noTmpfs == null, () -> "skipped: " + noTmpfs);
        Files.createDirectories(dir.resolve("empty"));
        for (Map.Entry<String, String> file : c.files().entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.write(path, bytes(file.getValue()));
        }
        Map<String, Long> before = snapshot(dir);
        // A file inside a list (--compare h100,profile:@a.json) is substituted where it follows "profile:".
        List<String> args = c.args().stream().map(a -> a.startsWith("@") ? dir + "/" + a.substring(1)
                : a.startsWith("%") ? special.resolve(a.substring(1)).toString()
                : a.replace("profile:@", "profile:" + dir + "/").replace("profile:%", "profile:" + special + "/"))
                .toList();

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = switch (c.runner()) {
            case IN_PROCESS -> Membound.run(args.toArray(String[]::new), new PrintWriter(out, true),
                    new PrintWriter(err, true));
            case STDOUT_DEV_FULL -> {
                try (PrintWriter full = new PrintWriter(new FileOutputStream("/dev/full"), true)) {
                    yield Membound.run(args.toArray(String[]::new), full, new PrintWriter(err, true));
                }
            }
            case CHILD_LANG_C -> child(args, out, err);
            case CALIBRATION_LOCK_HELD -> {
                try (CalibrationLock held = CalibrationLock.acquire(lockFile, false, new PrintWriter(new StringWriter()))) {
                    yield Membound.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
                }
            }
        };

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

    /**
     * The bytes of a case's file: its text in UTF-8, except that a lone surrogate ({@code \\udc80}) stands for the
     * byte 0x80, so that a case can hold bytes that are not UTF-8.
     */
    private static byte[] bytes(String text) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (String part : text.split("\udc80", -1)) {
            bytes.writeBytes(part.getBytes(StandardCharsets.UTF_8));
            bytes.write(0x80);
        }
        byte[] all = bytes.toByteArray();
        return java.util.Arrays.copyOf(all, all.length - 1);
    }

    /** Runs membound in a child JVM under LANG=C (ASCII file names), as a user of such a locale would. */
    private static int child(List<String> args, StringWriter out, StringWriter err) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Membound.class.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("LANG", "C");
        builder.environment().put("LC_ALL", "C");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        process.getOutputStream().close();
        java.util.concurrent.CompletableFuture<String> stderr = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        });
        out.write(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        int exit = process.waitFor();
        // The JDK's notice about incubator modules is not membound's output.
        stderr.get().lines().filter(l -> !l.startsWith("WARNING: Using incubator modules")).forEach(l -> err.write(l + "\n"));
        return exit;
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
