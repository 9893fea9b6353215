package membound.benchmarks.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import membound.benchmarks.stream.StreamKernel;

/**
 * Every PTX kernel assembles with {@code ptxas} for sm_80 (A100) and sm_90 (H100, H200, GH200): the driver JIT
 * compiles the same text for any newer GPU, GB10's sm_121 included, as long as it is written at PTX ISA 7.8 or
 * older. CI installs ptxas (CUDA 11.8, from Debian's nvidia-cuda-toolkit) and names it in {@code MEMBOUND_PTXAS};
 * where there is none the assembly tests skip, saying so.
 */
class PtxAssemblyTest {

    static final String DIRECTORY = "/membound/benchmarks/gpu/";
    static final List<String> MODULES = List.of("stream-f64.ptx", "stream-f32.ptx", "stream-bf16.ptx",
            "launch.ptx");
    static final double NEWEST_ISA = 7.8;

    @ParameterizedTest(name = "{0} for {1}")
    @CsvSource({"stream-f64.ptx, sm_80", "stream-f64.ptx, sm_90", "stream-f32.ptx, sm_80", "stream-f32.ptx, sm_90",
            "stream-bf16.ptx, sm_80", "stream-bf16.ptx, sm_90", "launch.ptx, sm_80", "launch.ptx, sm_90"})
    void assemblesWithPtxas(String module, String architecture, @TempDir Path scratch)
            throws IOException, InterruptedException {
        Path ptxas = ptxasOrSkip();
        Path source = scratch.resolve(module);
        Files.writeString(source, text(module), StandardCharsets.US_ASCII);
        Path log = scratch.resolve("ptxas.log");
        Process process = new ProcessBuilder(ptxas.toString(), "-arch=" + architecture, "-o",
                scratch.resolve(module + ".cubin").toString(), source.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "ptxas finished within 2 minutes");
        assertEquals(0, process.exitValue(), () -> "ptxas -arch=" + architecture + " " + module + ":\n" + read(log));
        assertTrue(Files.size(scratch.resolve(module + ".cubin")) > 0, "ptxas wrote a cubin");
    }

    @Test
    void everyModuleIsWrittenAtIsa78OrOlderForSm80() throws IOException {
        Pattern version = Pattern.compile("^\\.version (\\d+\\.\\d+)$", Pattern.MULTILINE);
        for (String module : MODULES) {
            Matcher matcher = version.matcher(text(module));
            assertTrue(matcher.find(), module + " declares its PTX ISA version");
            assertTrue(Double.parseDouble(matcher.group(1)) <= NEWEST_ISA, module + " is written at ISA "
                    + matcher.group(1) + ", newer than CUDA 11.8's " + NEWEST_ISA);
            assertTrue(text(module).contains("\n.target sm_80\n"), module + " targets sm_80");
        }
    }

    @Test
    void everyDeviceKernelHasAnEntryForEachElementType() throws IOException {
        for (String suffix : List.of("f64", "f32", "bf16")) {
            String text = text("stream-" + suffix + ".ptx");
            List<String> entries = new ArrayList<>();
            for (StreamKernel kernel : GpuPlan.DEVICE_KERNELS) {
                entries.add(kernel.name().toLowerCase(Locale.ROOT) + "_" + suffix);
            }
            entries.add("verify_" + suffix);
            for (String entry : entries) {
                assertTrue(text.contains(".visible .entry " + entry + "("), "stream-" + suffix + ".ptx has " + entry);
            }
        }
        assertTrue(text("launch.ptx").contains(".visible .entry empty()"));
    }

    /** ptxas from MEMBOUND_PTXAS, else on the PATH; skips where there is none. */
    static Path ptxasOrSkip() {
        String given = System.getenv("MEMBOUND_PTXAS");
        if (given != null && !given.isBlank()) {
            Path path = Path.of(given);
            assumeTrue(Files.isExecutable(path), "MEMBOUND_PTXAS=" + given + " is not an executable file");
            return path;
        }
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, "ptxas");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        assumeTrue(false, "no ptxas here (set MEMBOUND_PTXAS or put it on the PATH; .ci/run installs CUDA 11.8's from "
                + "Debian's nvidia-cuda-toolkit)");
        return null;
    }

    static String text(String module) throws IOException {
        try (InputStream in = PtxAssemblyTest.class.getResourceAsStream(DIRECTORY + module)) {
            assertNotNull(in, module + " is a resource");
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
