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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import membound.benchmarks.stream.StreamKernel;

/**
 * Every PTX kernel assembles with {@code ptxas} for sm_80 (A100), sm_90 (H100, H200, GH200), sm_100 (B200), sm_120
 * (RTX 50) and sm_121 (GB10, the DGX Spark), and on each of them holds every block of the grid the suite launches
 * ({@link GpuPlan#residentBlocks}) resident at once: no spills, and registers and shared memory within what the
 * architecture's multiprocessor has for that many threads. The driver JIT compiles the same text for the device it
 * runs on, as long as it is written at PTX ISA 7.8 or older.
 *
 * <p>Each module is assembled by every ptxas found that knows the architecture: {@code MEMBOUND_PTXAS} (CI names
 * CUDA 11.8's, from Debian's nvidia-cuda-toolkit, which knows sm_80 and sm_90), each one on the PATH, and a CUDA
 * toolkit's under {@code /usr/local} (CUDA 12.9 and newer know sm_121). Where none is found, or none knows an
 * architecture, that case skips, saying so.
 */
class PtxAssemblyTest {

    static final String DIRECTORY = "/membound/benchmarks/gpu/";
    static final List<String> MODULES = List.of("stream-f64.ptx", "stream-f32.ptx", "stream-bf16.ptx",
            "launch.ptx");
    static final double NEWEST_ISA = 7.8;

    /**
     * An architecture and what one of its multiprocessors holds: resident threads and shared memory, from the CUDA
     * C++ Programming Guide's "Technical Specifications per Compute Capability" (65,536 32-bit registers on every
     * one; 1 KiB of shared memory reserved per block from compute capability 8.0 on).
     */
    enum Target {
        SM_80(2048, 164), SM_90(2048, 228), SM_100(2048, 228), SM_120(1536, 100), SM_121(1536, 100);

        static final int REGISTERS = 65_536;
        static final int RESERVED_SHARED_BYTES_PER_BLOCK = 1024;

        final int maxThreads;
        final int sharedBytes;

        Target(int maxThreads, int sharedKib) {
            this.maxThreads = maxThreads;
            this.sharedBytes = sharedKib * 1024;
        }

        String arch() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Blocks of the suite's grid per multiprocessor: what {@link GpuPlan#residentBlocks} launches. */
        int launchedBlocks() {
            return GpuPlan.residentBlocks(1, maxThreads);
        }

        /**
         * Blocks of {@code threads} threads a multiprocessor holds with {@code registers} registers a thread:
         * registers are allocated per warp in units of 256.
         */
        int blocksByRegisters(int registers, int threads) {
            int perWarp = (registers * 32 + 255) / 256 * 256;
            int perBlock = perWarp * ((threads + 31) / 32);
            return perBlock == 0 ? Integer.MAX_VALUE : REGISTERS / perBlock;
        }

        int blocksBySharedMemory(int sharedBytesPerBlock) {
            return sharedBytesPerBlock == 0 ? Integer.MAX_VALUE
                    : sharedBytes / (sharedBytesPerBlock + RESERVED_SHARED_BYTES_PER_BLOCK);
        }
    }

    /** What ptxas -v reports for one entry. */
    record Resources(String entry, int registers, int sharedBytes, int stackBytes, int spillStoreBytes) {
    }

    static Stream<Arguments> modulesAndTargets() {
        return MODULES.stream().flatMap(module -> Stream.of(Target.values()).map(target -> Arguments.of(module,
                target)));
    }

    @ParameterizedTest(name = "{0} for {1}")
    @MethodSource("modulesAndTargets")
    void assemblesAndEveryBlockOfTheGridIsResident(String module, Target target, @TempDir Path scratch)
            throws IOException, InterruptedException {
        List<Path> assemblers = ptxasesOrSkip();
        Path source = scratch.resolve(module);
        Files.writeString(source, text(module), StandardCharsets.US_ASCII);
        int assembled = 0;
        for (Path ptxas : assemblers) {
            Path cubin = scratch.resolve(module + "." + assembled + ".cubin");
            Assembly assembly = assemble(ptxas, target.arch(), source, cubin);
            if (assembly.unknownArchitecture()) {
                continue;
            }
            assertEquals(0, assembly.exit(), () -> ptxas + " -arch=" + target.arch() + " " + module + ":\n"
                    + assembly.log());
            assertTrue(Files.size(cubin) > 0, "ptxas wrote a cubin");
            List<Resources> entries = resources(assembly.log());
            assertEquals(entries(module).size(), entries.size(), () -> "ptxas -v reports every entry of " + module
                    + ":\n" + assembly.log());
            for (Resources entry : entries) {
                String where = entry + " on " + target.arch() + " by " + ptxas;
                assertEquals(0, entry.spillStoreBytes(), () -> "no spills: " + where);
                assertEquals(0, entry.stackBytes(), () -> "no stack frame: " + where);
                int launched = target.launchedBlocks();
                assertTrue(target.blocksByRegisters(entry.registers(), GpuPlan.THREADS_PER_BLOCK) >= launched,
                        () -> "the registers hold " + launched + " blocks of " + GpuPlan.THREADS_PER_BLOCK
                                + " threads a multiprocessor: " + where);
                assertTrue(target.blocksBySharedMemory(entry.sharedBytes()) >= launched,
                        () -> "the shared memory holds " + launched + " blocks a multiprocessor: " + where);
            }
            assembled++;
        }
        assumeTrue(assembled > 0, "no ptxas here knows " + target.arch() + " (tried " + assemblers + "; "
                + "sm_100 and sm_120 need CUDA 12.8, sm_121 CUDA 12.9 or newer)");
    }

    @Test
    void theOccupancyRuleSeesWhatWouldHoldBlocksBack() {
        // 32 registers a thread fill sm_90's register file with its 8 blocks of 256 threads; 33 round up to 40.
        assertEquals(8, Target.SM_90.blocksByRegisters(32, 256));
        assertEquals(6, Target.SM_90.blocksByRegisters(33, 256));
        assertEquals(6, Target.SM_121.blocksByRegisters(40, 256));
        assertEquals(5, Target.SM_121.blocksByRegisters(41, 256));
        assertEquals(8, Target.SM_90.launchedBlocks());
        assertEquals(6, Target.SM_121.launchedBlocks());
        // Dot's 8 KiB tree: eight blocks in sm_90's 228 KiB, six in sm_121's 100 KiB; 16 KiB would not fit six.
        assertTrue(Target.SM_90.blocksBySharedMemory(8192) >= 8);
        assertTrue(Target.SM_121.blocksBySharedMemory(8192) >= 6);
        assertEquals(5, Target.SM_121.blocksBySharedMemory(16384));
        List<Resources> parsed = resources("""
                ptxas info    : 0 bytes gmem
                ptxas info    : Compiling entry function 'dot_f64' for 'sm_90'
                ptxas info    : Function properties for dot_f64
                    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
                ptxas info    : Used 22 registers, used 1 barriers, 8192 bytes smem
                ptxas info    : Compiling entry function 'copy_f64' for 'sm_90'
                ptxas info    : Function properties for copy_f64
                    16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
                ptxas info    : Used 16 registers
                """);
        assertEquals(List.of(new Resources("dot_f64", 22, 8192, 0, 0), new Resources("copy_f64", 16, 0, 16, 8)),
                parsed);
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

    record Assembly(int exit, String log) {
        /** ptxas 11.8 on sm_121: "Value 'sm_121' is not defined for option 'gpu-name'". */
        boolean unknownArchitecture() {
            return exit != 0 && log.contains("is not defined for option 'gpu-name'");
        }
    }

    static Assembly assemble(Path ptxas, String arch, Path source, Path cubin) throws IOException,
            InterruptedException {
        Path log = cubin.resolveSibling(cubin.getFileName() + ".log");
        Process process = new ProcessBuilder(ptxas.toString(), "-v", "-arch=" + arch, "-o", cubin.toString(),
                source.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), ptxas + " finished within 2 minutes");
        return new Assembly(process.exitValue(), read(log));
    }

    private static final Pattern ENTRY = Pattern.compile("Compiling entry function '(\\w+)'");
    private static final Pattern FRAME = Pattern.compile("(\\d+) bytes stack frame, (\\d+) bytes spill stores");
    private static final Pattern USED = Pattern.compile("Used (\\d+) registers");
    private static final Pattern SHARED = Pattern.compile("(\\d+) bytes smem");

    /** Each entry's registers, shared memory, stack frame and spill stores from ptxas -v's report. */
    static List<Resources> resources(String log) {
        List<Resources> entries = new ArrayList<>();
        String entry = null;
        int stack = 0;
        int spills = 0;
        for (String line : log.split("\n")) {
            Matcher matcher = ENTRY.matcher(line);
            if (matcher.find()) {
                entry = matcher.group(1);
                stack = 0;
                spills = 0;
                continue;
            }
            matcher = FRAME.matcher(line);
            if (matcher.find()) {
                stack = Integer.parseInt(matcher.group(1));
                spills = Integer.parseInt(matcher.group(2));
                continue;
            }
            matcher = USED.matcher(line);
            if (entry != null && matcher.find()) {
                Matcher shared = SHARED.matcher(line);
                entries.add(new Resources(entry, Integer.parseInt(matcher.group(1)),
                        shared.find() ? Integer.parseInt(shared.group(1)) : 0, stack, spills));
                entry = null;
            }
        }
        return entries;
    }

    /** The entries a module declares. */
    static List<String> entries(String module) throws IOException {
        Matcher matcher = Pattern.compile("^\\.visible \\.entry (\\w+)\\(", Pattern.MULTILINE).matcher(text(module));
        List<String> entries = new ArrayList<>();
        while (matcher.find()) {
            entries.add(matcher.group(1));
        }
        return entries;
    }

    /** Every ptxas found, each once; skips where there is none. */
    static List<Path> ptxasesOrSkip() throws IOException {
        String given = System.getenv("MEMBOUND_PTXAS");
        assumeTrue(given == null || given.isBlank() || Files.isExecutable(Path.of(given)), "MEMBOUND_PTXAS=" + given
                + " is not an executable file");
        List<Path> found = ptxases();
        assumeTrue(!found.isEmpty(), "no ptxas here (set MEMBOUND_PTXAS or put it on the PATH; .ci/run installs "
                + "CUDA 11.8's from Debian's nvidia-cuda-toolkit)");
        return found;
    }

    private static List<Path> ptxases;

    /**
     * MEMBOUND_PTXAS, then those on the PATH, then the CUDA toolkits' under {@code /usr/local}, one per ptxas build:
     * looked for once, for every case.
     */
    private static synchronized List<Path> ptxases() throws IOException {
        if (ptxases != null) {
            return ptxases;
        }
        List<Path> candidates = new ArrayList<>();
        String given = System.getenv("MEMBOUND_PTXAS");
        if (given != null && !given.isBlank()) {
            candidates.add(Path.of(given));
        }
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            candidates.add(Path.of(directory.isEmpty() ? "." : directory, "ptxas"));
        }
        Path local = Path.of("/usr/local");
        if (Files.isDirectory(local)) {
            try (Stream<Path> toolkits = Files.list(local)) {
                toolkits.filter(path -> path.getFileName().toString().startsWith("cuda")).sorted()
                        .forEach(toolkit -> candidates.add(toolkit.resolve("bin/ptxas")));
            }
        }
        Map<String, Path> byBuild = new LinkedHashMap<>();
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                byBuild.putIfAbsent(build(candidate.toRealPath()), candidate.toRealPath());
            }
        }
        ptxases = List.copyOf(byBuild.values());
        return ptxases;
    }

    /**
     * The last line of {@code ptxas --version} ("Build cuda_13.0.r13.0/compiler.36424714_0"): a wrapper script and
     * the toolkit's binary it runs are one ptxas.
     */
    private static String build(Path ptxas) throws IOException {
        Process process = new ProcessBuilder(ptxas.toString(), "--version").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out.isEmpty() ? ptxas.toString() : out.substring(out.lastIndexOf('\n') + 1);
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
