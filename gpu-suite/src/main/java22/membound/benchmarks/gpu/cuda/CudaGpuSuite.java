package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static membound.benchmarks.gpu.GpuPlan.THREADS_PER_BLOCK;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import membound.benchmarks.gpu.ComputeCapability;
import membound.benchmarks.gpu.GpuCopyResult;
import membound.benchmarks.gpu.GpuGemmResult;
import membound.benchmarks.gpu.GpuPlan;
import membound.benchmarks.gpu.GpuProperties;
import membound.benchmarks.gpu.GpuRun;
import membound.benchmarks.gpu.GpuSharingResult;
import membound.benchmarks.gpu.GpuStreamResult;
import membound.benchmarks.gpu.GpuSuite;
import membound.benchmarks.gpu.GpuUnavailableException;
import membound.benchmarks.results.PassTimes;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamSlice;
import membound.benchmarks.stream.StreamValidationException;
import membound.benchmarks.stream.StreamValues;
import membound.vocabulary.Implementation;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.units.Units;

/**
 * The GPU suite on GPU 0 through the CUDA driver: device attributes, then the STREAM kernels at each working set
 * (every pass timed with CUDA events and validated on the device against STREAM's closed form), the launch +
 * synchronise latency of an empty kernel, pinned copies in both directions, and the GEMMs of the plan through
 * cuBLASLt ({@link CudaGemm}; without cuBLASLt, or for a precision the device does not offer, one line says why and
 * the rest goes on).
 *
 * <p>A pass: the array the kernel writes is poisoned with NaN (untimed), the kernel runs between two events, and a
 * verify kernel counts the elements that differ from the closed form (Dot's sum is compared instead). The poison
 * makes each pass prove its own result; STREAM's start values ({@link StreamValues#start}) make the answers small
 * integers, exact in fp32 and fp64. After a kernel the array it wrote gets its start value back, so each kernel
 * starts from STREAM's state.
 *
 * <p>HOW TO RUN: {@code membound calibrate} (any mode) on a machine with an NVIDIA driver and GPU and a JDK 22+, or
 * {@code scripts/gpu-check.sh}.
 */
public final class CudaGpuSuite implements GpuSuite {

    @Override
    public GpuRun measure(GpuPlan plan) {
        return measure(plan, CudaDriver.load());
    }

    /** The suite on {@code cuda}'s first device. */
    static GpuRun measure(GpuPlan plan, CudaCalls cuda) {
        cuda.init();
        if (cuda.deviceCount() == 0) {
            throw new GpuUnavailableException("the CUDA driver sees no device (cuDeviceGetCount returned 0)", null);
        }
        int device = cuda.device(0);
        GpuProperties properties = properties(cuda, device);
        cuda.retainPrimaryContext(device);
        try (Session session = new Session(cuda, properties)) {
            return session.run(plan);
        } finally {
            cuda.releasePrimaryContext(device);
        }
    }

    static GpuProperties properties(CudaCalls cuda, int device) {
        return new GpuProperties(cuda.deviceName(device),
                new ComputeCapability(cuda.attribute(device, CudaDriver.COMPUTE_CAPABILITY_MAJOR),
                        cuda.attribute(device, CudaDriver.COMPUTE_CAPABILITY_MINOR)),
                cuda.attribute(device, CudaDriver.MULTIPROCESSOR_COUNT),
                cuda.attribute(device, CudaDriver.MAX_THREADS_PER_MULTIPROCESSOR),
                cuda.attribute(device, CudaDriver.L2_CACHE_SIZE),
                cuda.totalMemoryBytes(device),
                cuda.attribute(device, CudaDriver.GLOBAL_MEMORY_BUS_WIDTH),
                cuda.attribute(device, CudaDriver.MEMORY_CLOCK_RATE),
                cuda.attribute(device, CudaDriver.CLOCK_RATE),
                cuda.attribute(device, CudaDriver.INTEGRATED) != 0,
                cuda.attribute(device, CudaDriver.UNIFIED_ADDRESSING) != 0,
                cuda.attribute(device, CudaDriver.PAGEABLE_MEMORY_ACCESS) != 0,
                cuda.attribute(device, CudaDriver.PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES) != 0,
                cuda.attribute(device, CudaDriver.CONCURRENT_MANAGED_ACCESS) != 0,
                cuda.driverVersion());
    }

    /** The loaded kernels, events and scratch words of one run, released when it ends. */
    private static final class Session implements AutoCloseable {
        private final CudaCalls cuda;
        private final GpuProperties device;
        private final Arena arena = Arena.ofConfined();
        private final List<MemorySegment> modules = new ArrayList<>();
        private final List<Long> allocations = new ArrayList<>();
        private final MemorySegment start;
        private final MemorySegment end;
        private final long scratch;
        private final int grid;
        private final MemorySegment launchEmpty;
        private final java.util.Map<ElementType, Kernels> kernels = new java.util.EnumMap<>(ElementType.class);

        Session(CudaCalls cuda, GpuProperties device) {
            this.cuda = cuda;
            this.device = device;
            this.start = cuda.createEvent();
            this.end = cuda.createEvent();
            this.scratch = allocate(Long.BYTES);
            this.grid = GpuPlan.residentBlocks(device.multiprocessors(), device.maxThreadsPerMultiprocessor());
            this.launchEmpty = cuda.function(module("launch.ptx"), "empty");
        }

        GpuRun run(GpuPlan plan) {
            List<GpuStreamResult> stream = new ArrayList<>();
            List<GpuPlan.WorkingSetSize> sizes = plan.workingSets(device.l2Bytes());
            long largest = sizes.stream().mapToLong(GpuPlan.WorkingSetSize::arrayBytes).max().orElseThrow();
            for (GpuPlan.WorkingSetSize size : sizes) {
                stream.addAll(stream(plan, size, launchesPerSample(size, largest)));
            }
            PassTimes launchSync = launchSync(plan);
            PassTimes launchInterval = launchInterval(plan);
            List<GpuCopyResult> copies = copies(plan);
            List<String> notMeasured = new ArrayList<>();
            List<GpuGemmResult> gemm = List.of();
            String library = null;
            if (!plan.gemm().precisions().isEmpty()) {
                try (CublasLt lt = CublasLt.load()) {
                    library = lt.library() + " " + CublasLt.versionText(lt.version());
                    CudaGemm gemms = new CudaGemm(cuda, lt, device.capability(), start, end);
                    gemm = gemms.measure(plan.gemm());
                    notMeasured.addAll(gemms.notMeasured());
                } catch (GpuUnavailableException e) {
                    if (e instanceof CudaException cuda && !cuda.getMessage().startsWith("cublasLtCreate")) {
                        throw e;
                    }
                    notMeasured.add("gpu GEMM not measured: " + e.getMessage());
                }
            }
            List<GpuSharingResult> sharing = List.of();
            if (device.sharesHostMemory()) {
                GpuPlan.WorkingSetSize dram = sizes.get(sizes.size() - 1);
                if (device.pageableMemoryAccess()) {
                    stream.add(hostMemoryTriad(plan, dram));
                } else {
                    notMeasured.add("gpu triad on CPU-allocated memory not measured: the device reports no pageable "
                            + "memory access (CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 0)");
                }
                try {
                    sharing = new Sharing(plan, dram).measure();
                } catch (CudaException e) {
                    throw e;
                } catch (GpuUnavailableException e) {
                    notMeasured.add("gpu sharing curve not measured: " + e.getMessage());
                }
            } else {
                notMeasured.add("gpu sharing curve not measured: " + device.name() + " does not share the host's "
                        + "memory (not integrated, no pageable access through the host's page tables)");
            }
            return new GpuRun(device, plan, stream, launchSync, launchInterval, copies, gemm, library, sharing,
                    notMeasured);
        }

        private MemorySegment module(String resource) {
            MemorySegment module = cuda.loadModule(resource, Ptx.text(resource));
            modules.add(module);
            return module;
        }

        private Kernels kernels(ElementType type) {
            return kernels.computeIfAbsent(type, t -> new Kernels(cuda, module(Ptx.streamResource(t)), t));
        }

        private long allocate(long bytes) {
            long pointer = cuda.allocate(bytes);
            allocations.add(pointer);
            return pointer;
        }

        private void release(long pointer) {
            allocations.remove(pointer);
            cuda.free(pointer);
        }

        /** Fails in one line, before allocating, when the arrays do not fit in the free device memory. */
        private void ensureFree(long bytes, String what) {
            long free = cuda.memoryInfo()[0];
            if (bytes > free) {
                throw new GpuUnavailableException("not enough device memory for " + what + ": it needs "
                        + Units.formatBytes(bytes) + ", cuMemGetInfo reports " + Units.formatBytes(free) + " free",
                        "CUDA_ERROR_OUT_OF_MEMORY");
            }
        }

        // ---- STREAM

        /**
         * Launches in one timed sample: a pass over arrays inside the L2 lasts microseconds, near the events'
         * resolution and the gap between launches, so as many passes run back to back as make one pass over the
         * largest arrays (at most {@value #MOST_LAUNCHES_PER_SAMPLE}); the sample's time is divided among them.
         */
        static int launchesPerSample(GpuPlan.WorkingSetSize size, long largestArrayBytes) {
            return (int) Math.max(1, Math.min(MOST_LAUNCHES_PER_SAMPLE, largestArrayBytes / size.arrayBytes()));
        }

        static final int MOST_LAUNCHES_PER_SAMPLE = 64;

        private List<GpuStreamResult> stream(GpuPlan plan, GpuPlan.WorkingSetSize size, int launches) {
            ensureFree(3 * size.arrayBytes(), "three arrays of " + Units.formatBytes(size.arrayBytes()) + " ("
                    + size.label() + ")");
            long[] arrays = {allocate(size.arrayBytes()), allocate(size.arrayBytes()), allocate(size.arrayBytes())};
            try {
                List<GpuStreamResult> results = new ArrayList<>();
                for (ElementType type : plan.elementTypes()) {
                    Kernels kernels = kernels(type);
                    long elements = size.arrayBytes() / type.bytes();
                    StreamValues values = StreamValues.start(type);
                    for (char array : new char[] {'a', 'b', 'c'}) {
                        fill(kernels, arrays[array - 'a'], values.of(array), elements);
                    }
                    for (StreamKernel kernel : plan.kernels()) {
                        results.add(measureKernel(plan, size, kernels, kernel, arrays, elements, values, launches));
                    }
                }
                return results;
            } finally {
                for (long array : arrays) {
                    release(array);
                }
            }
        }

        private GpuStreamResult measureKernel(GpuPlan plan, GpuPlan.WorkingSetSize size, Kernels kernels,
                                              StreamKernel kernel, long[] arrays, long elements, StreamValues values,
                                              int launches) {
            char written = writtenArray(kernel);
            long[] nanos = new long[plan.passes()];
            for (int pass = -plan.warmupPasses(); pass < plan.passes(); pass++) {
                long took = pass(kernels, kernel, arrays, elements, values, written, size, launches);
                if (pass >= 0) {
                    nanos[pass] = took;
                }
            }
            if (written != 0) {
                fill(kernels, arrays[written - 'a'], values.of(written), elements);
            }
            return new GpuStreamResult(kernel, kernels.type, size, elements, grid, THREADS_PER_BLOCK, launches,
                    PassTimes.ofNanos(nanos));
        }

        /** One validated sample of {@code launches} passes back to back: the time of one pass, in nanoseconds. */
        private long pass(Kernels kernels, StreamKernel kernel, long[] arrays, long elements, StreamValues values,
                          char written, GpuPlan.WorkingSetSize size, int launches) {
            if (written != 0) {
                fill(kernels, arrays[written - 'a'], Double.NaN, elements);
            } else {
                cuda.set32(scratch, 0, 2);
            }
            try (Arena call = Arena.ofConfined()) {
                MemorySegment parameters = kernels.streamParameters(call, arrays, StreamValues.SCALAR, elements,
                        scratch);
                MemorySegment function = kernels.function(kernel);
                cuda.synchronize();
                cuda.record(start);
                for (int launch = 0; launch < launches; launch++) {
                    cuda.launch(function, grid, THREADS_PER_BLOCK, parameters, kernels.name(kernel));
                }
                cuda.record(end);
                cuda.synchronize(end);
            }
            long nanos = Math.max(1, Math.round(cuda.elapsedMillis(start, end) * 1e6 / launches));
            if (written != 0) {
                double expected = values.after(kernel, 1).of(written);
                long wrong = mismatches(kernels, arrays[written - 'a'], expected, elements);
                if (wrong != 0) {
                    throw new StreamValidationException(String.format(Locale.ROOT, "GPU %s (%s, %s) failed "
                                    + "validation: %d of %d elements of %c differ from the expected %s", kernel.label(),
                            kernels.type.javaName(), size.label(), wrong, elements, written, expected));
                }
            } else {
                double expected = launches * values.reduction(kernel, elements);
                double sum = readDouble(scratch);
                if (sum != expected) {
                    throw new StreamValidationException(String.format(Locale.ROOT, "GPU %s (%s, %s) failed "
                            + "validation: the sum is %s, expected %s", kernel.label(), kernels.type.javaName(),
                            size.label(), sum, expected));
                }
            }
            return nanos;
        }

        private void fill(Kernels kernels, long array, double value, long elements) {
            try (Arena call = Arena.ofConfined()) {
                cuda.launch(kernels.function(StreamKernel.FILL), grid, THREADS_PER_BLOCK,
                        kernels.streamParameters(call, new long[] {0, 0, array}, value, elements, 0),
                        kernels.name(StreamKernel.FILL));
            }
        }

        private long mismatches(Kernels kernels, long array, double expected, long elements) {
            cuda.set32(scratch, 0, 1);
            try (Arena call = Arena.ofConfined()) {
                cuda.launch(kernels.verify, grid, THREADS_PER_BLOCK,
                        kernels.verifyParameters(call, array, expected, elements, scratch), kernels.verifyName);
                MemorySegment count = call.allocate(JAVA_INT);
                cuda.read(count, scratch, Integer.BYTES);
                return Integer.toUnsignedLong(count.get(JAVA_INT, 0));
            }
        }

        private double readDouble(long pointer) {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment value = call.allocate(JAVA_DOUBLE);
                cuda.read(value, pointer, Double.BYTES);
                return value.get(JAVA_DOUBLE, 0);
            }
        }

        // ---- launch latency

        private PassTimes launchSync(GpuPlan plan) {
            int warmups = Math.max(1, plan.launches() / 10);
            long[] nanos = new long[plan.launches()];
            MemorySegment none = arena.allocate(8);
            cuda.synchronize();
            for (int i = -warmups; i < plan.launches(); i++) {
                long begin = System.nanoTime();
                cuda.launch(launchEmpty, 1, 1, none, "empty");
                cuda.synchronize();
                long took = System.nanoTime() - begin;
                if (i >= 0) {
                    nanos[i] = took;
                }
            }
            return PassTimes.ofNanos(nanos);
        }

        /** Empty kernels launched back to back in one sample, then one synchronise. */
        static final int LAUNCHES_PER_INTERVAL_SAMPLE = 100;

        /**
         * The interval between kernels launched back to back without waiting (what a training step's stream of
         * short kernels pays per kernel): each sample is {@value #LAUNCHES_PER_INTERVAL_SAMPLE} empty launches and
         * one synchronise on the host clock, divided by the launches.
         */
        private PassTimes launchInterval(GpuPlan plan) {
            int samples = Math.max(1, plan.launches() / LAUNCHES_PER_INTERVAL_SAMPLE);
            long[] nanos = new long[samples];
            MemorySegment none = arena.allocate(8);
            cuda.synchronize();
            for (int i = -1; i < samples; i++) {
                long begin = System.nanoTime();
                for (int launch = 0; launch < LAUNCHES_PER_INTERVAL_SAMPLE; launch++) {
                    cuda.launch(launchEmpty, 1, 1, none, "empty");
                }
                cuda.synchronize();
                long took = (System.nanoTime() - begin) / LAUNCHES_PER_INTERVAL_SAMPLE;
                if (i >= 0) {
                    nanos[i] = Math.max(1, took);
                }
            }
            return PassTimes.ofNanos(nanos);
        }

        // ---- memory the CPU allocated

        /**
         * Triad by the GPU on three arrays the CPU allocated (pageable, {@code malloc}ed through the FFM API) and
         * touched first, so they live where the CPU placed them: the GPU reaches them through the host's page tables
         * (ATS) or the driver's HMM. Each pass poisons {@code a} with NaN on the host, runs between two events and is
         * checked element by element on the host.
         */
        private GpuStreamResult hostMemoryTriad(GpuPlan plan, GpuPlan.WorkingSetSize dram) {
            Kernels kernels = kernels(ElementType.DOUBLE);
            long bytes = dram.arrayBytes();
            long elements = bytes / Double.BYTES;
            StreamValues values = StreamValues.start(ElementType.DOUBLE);
            double expected = values.after(StreamKernel.TRIAD, 1).a();
            try (Arena host = Arena.ofShared()) {
                MemorySegment a = host.allocate(bytes, 4096);
                MemorySegment b = host.allocate(bytes, 4096);
                MemorySegment c = host.allocate(bytes, 4096);
                fillHost(b, elements, values.b());
                fillHost(c, elements, values.c());
                long[] arrays = {a.address(), b.address(), c.address()};
                long[] nanos = new long[plan.passes()];
                for (int pass = -plan.warmupPasses(); pass < plan.passes(); pass++) {
                    fillHost(a, elements, Double.NaN);
                    try (Arena call = Arena.ofConfined()) {
                        MemorySegment parameters = kernels.streamParameters(call, arrays, StreamValues.SCALAR, elements,
                                scratch);
                        cuda.synchronize();
                        cuda.record(start);
                        cuda.launch(kernels.function(StreamKernel.TRIAD), grid, THREADS_PER_BLOCK, parameters,
                                kernels.name(StreamKernel.TRIAD) + " on host memory");
                        cuda.record(end);
                        cuda.synchronize(end);
                    }
                    long wrong = hostMismatches(a, elements, expected);
                    if (wrong != 0) {
                        throw new StreamValidationException("GPU Triad on CPU-allocated memory failed validation: "
                                + wrong + " of " + elements + " elements of a differ from " + expected);
                    }
                    if (pass >= 0) {
                        nanos[pass] = Math.max(1, Math.round(cuda.elapsedMillis(start, end) * 1e6));
                    }
                }
                return new GpuStreamResult(StreamKernel.TRIAD, ElementType.DOUBLE,
                        new GpuPlan.WorkingSetSize(HOST_PAGEABLE, bytes, MemoryLevel.DRAM), elements, grid,
                        THREADS_PER_BLOCK, 1, PassTimes.ofNanos(nanos));
            }
        }

        /**
         * The sharing curve: the GPU's DRAM Triad while 0, half and all CPU threads stream Triad from the same
         * memory, and the CPU's Triad on every thread while the GPU streams. CPU threads each own a slice of
         * {@value #CPU_SLICE_ARRAY_BYTES} bytes per array (together far beyond every cache), allocated and touched
         * first by the thread itself; they run the CPU suite's kernels (the Vector API's where the JVM has the module,
         * else the scalar twins) and are checked against STREAM's closed form when they stop.
         */
        private final class Sharing {
            private final GpuPlan plan;
            private final GpuPlan.WorkingSetSize dram;
            private final int cpus = Runtime.getRuntime().availableProcessors();
            private final Implementation implementation = ModuleLayer.boot().findModule("jdk.incubator.vector")
                    .isPresent() ? Implementation.VECTOR : Implementation.SCALAR;
            private final StreamValues values = StreamValues.start(ElementType.DOUBLE);

            Sharing(GpuPlan plan, GpuPlan.WorkingSetSize dram) {
                this.plan = plan;
                this.dram = dram;
            }

            List<GpuSharingResult> measure() {
                long bytes = dram.arrayBytes();
                ensureFree(3 * bytes, "the sharing curve's three arrays of " + Units.formatBytes(bytes));
                long[] arrays = {allocate(bytes), allocate(bytes), allocate(bytes)};
                try {
                    Kernels kernels = kernels(ElementType.DOUBLE);
                    long elements = bytes / Double.BYTES;
                    for (char array : new char[] {'a', 'b', 'c'}) {
                        fill(kernels, arrays[array - 'a'], values.of(array), elements);
                    }
                    List<GpuSharingResult> results = new ArrayList<>();
                    for (int threads : new java.util.TreeSet<>(List.of(0, Math.max(1, cpus / 2), cpus))) {
                        results.add(gpuWhileCpuStreams(kernels, arrays, elements, threads));
                    }
                    results.add(cpuWhileGpuStreams(kernels, arrays, elements));
                    return results;
                } finally {
                    for (long array : arrays) {
                        release(array);
                    }
                }
            }

            private GpuSharingResult gpuWhileCpuStreams(Kernels kernels, long[] arrays, long elements, int threads) {
                CpuStreams cpu = new CpuStreams(threads, 0);
                try {
                    cpu.startAndAwaitFirstPass();
                    GpuStreamResult result = measureKernel(plan, dram, kernels, StreamKernel.TRIAD, arrays, elements,
                            values, 1);
                    return new GpuSharingResult("gpu", threads, false, StreamKernel.TRIAD, result.streamBytesPerPass(),
                            result.passTimes());
                } finally {
                    cpu.stopAndCheck();
                }
            }

            /** The CPU's samples on every thread while this thread keeps the GPU streaming Triad. */
            private GpuSharingResult cpuWhileGpuStreams(Kernels kernels, long[] arrays, long elements) {
                int passesPerSample = plan.smoke() ? 1 : CPU_PASSES_PER_SAMPLE;
                CpuStreams cpu = new CpuStreams(cpus, plan.warmupPasses() + plan.passes());
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment parameters = kernels.streamParameters(call, arrays, StreamValues.SCALAR, elements,
                            scratch);
                    MemorySegment triad = kernels.function(StreamKernel.TRIAD);
                    cpu.passesPerSample = passesPerSample;
                    cpu.start();
                    while (!cpu.finished()) {
                        for (int launch = 0; launch < GPU_LAUNCHES_PER_CHECK; launch++) {
                            cuda.launch(triad, grid, THREADS_PER_BLOCK, parameters, kernels.name(StreamKernel.TRIAD));
                        }
                        cuda.synchronize();
                    }
                } finally {
                    cpu.stopAndCheck();
                }
                long wrong = mismatches(kernels, arrays[0], values.after(StreamKernel.TRIAD, 1).a(), elements);
                if (wrong != 0) {
                    throw new StreamValidationException("GPU Triad while the CPU streamed failed validation: " + wrong
                            + " of " + elements + " elements of a differ");
                }
                double bytesPerSample = (double) cpus * passesPerSample * StreamKernel.TRIAD.streamArraysMoved()
                        * (CPU_SLICE_ARRAY_BYTES / Double.BYTES) * Double.BYTES;
                return new GpuSharingResult("cpu", cpus, true, StreamKernel.TRIAD, bytesPerSample,
                        PassTimes.ofNanos(cpu.sampleNanos(plan.warmupPasses())));
            }

            /**
             * CPU threads streaming Triad: until stopped ({@code samples} 0), or for {@code samples} samples of
             * {@code passesPerSample} passes each, all threads starting each sample together; a sample lasts as long
             * as its slowest thread.
             */
            private final class CpuStreams {
                private final int threads;
                private final int samples;
                int passesPerSample = 1;
                private final List<Thread> workers = new ArrayList<>();
                private final java.util.concurrent.CountDownLatch firstPass;
                private final java.util.concurrent.CyclicBarrier barrier;
                private final long[][] nanos;
                private final String[] problems;
                private final Throwable[] failures;
                private volatile boolean stop;
                private volatile boolean done;

                CpuStreams(int threads, int samples) {
                    this.threads = threads;
                    this.samples = samples;
                    this.firstPass = new java.util.concurrent.CountDownLatch(threads);
                    this.barrier = threads == 0 ? null : new java.util.concurrent.CyclicBarrier(threads);
                    this.nanos = new long[threads][Math.max(1, samples)];
                    this.problems = new String[threads];
                    this.failures = new Throwable[threads];
                }

                void start() {
                    int length = (int) (CPU_SLICE_ARRAY_BYTES / Double.BYTES);
                    for (int t = 0; t < threads; t++) {
                        int index = t;
                        Thread worker = new Thread(() -> work(index, length), "membound-sharing-cpu-" + t);
                        worker.setDaemon(true);
                        workers.add(worker);
                        worker.start();
                    }
                }

                void startAndAwaitFirstPass() {
                    start();
                    try {
                        firstPass.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while the CPU threads started", e);
                    }
                }

                private void work(int index, int length) {
                    try {
                        StreamSlice slice = StreamSlice.allocate(StreamKernel.TRIAD, ElementType.DOUBLE,
                                implementation, length);
                        slice.fill(values);
                        slice.run(1);
                        firstPass.countDown();
                        if (samples == 0) {
                            while (!stop) {
                                slice.run(1);
                            }
                        } else {
                            for (int sample = 0; sample < samples && !stop; sample++) {
                                // Timed: a thread that failed never arrives, and the others must not wait for it.
                                barrier.await(BARRIER_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
                                long begin = System.nanoTime();
                                slice.run(passesPerSample);
                                nanos[index][sample] = Math.max(1, System.nanoTime() - begin);
                            }
                        }
                        problems[index] = slice.check(values.after(StreamKernel.TRIAD, 1));
                    } catch (Throwable e) {
                        failures[index] = e;
                        firstPass.countDown();
                        if (barrier != null) {
                            barrier.reset();
                        }
                    }
                }

                boolean finished() {
                    for (Thread worker : workers) {
                        if (worker.isAlive()) {
                            return false;
                        }
                    }
                    return true;
                }

                void stopAndCheck() {
                    stop = true;
                    for (Thread worker : workers) {
                        try {
                            worker.join();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted while the CPU threads stopped", e);
                        }
                    }
                    if (done) {
                        return;
                    }
                    done = true;
                    for (int t = 0; t < threads; t++) {
                        if (failures[t] != null && !(failures[t] instanceof java.util.concurrent.BrokenBarrierException)
                                && !(failures[t] instanceof java.util.concurrent.TimeoutException)) {
                            throw new GpuUnavailableException("a CPU thread of the sharing curve failed: "
                                    + failures[t], null, failures[t]);
                        }
                    }
                    for (int t = 0; t < threads; t++) {
                        if (failures[t] != null) {
                            throw new GpuUnavailableException("a CPU thread of the sharing curve failed: "
                                    + failures[t], null, failures[t]);
                        }
                        if (problems[t] != null) {
                            throw new StreamValidationException("CPU Triad of the sharing curve failed validation "
                                    + "(thread " + t + "): " + problems[t]);
                        }
                    }
                }

                /** Each kept sample's time: the slowest thread's. */
                long[] sampleNanos(int warmups) {
                    long[] kept = new long[samples - warmups];
                    for (int sample = warmups; sample < samples; sample++) {
                        long slowest = 1;
                        for (int t = 0; t < threads; t++) {
                            slowest = Math.max(slowest, nanos[t][sample]);
                        }
                        kept[sample - warmups] = slowest;
                    }
                    return kept;
                }
            }
        }

        // ---- pinned copies

        private List<GpuCopyResult> copies(GpuPlan plan) {
            long bytes = plan.copyBytes();
            ensureFree(bytes, "a pinned copy of " + Units.formatBytes(bytes));
            long onDevice = allocate(bytes);
            MemorySegment host = cuda.allocateHost(bytes);
            try {
                Kernels doubles = kernels(ElementType.DOUBLE);
                long elements = bytes / Double.BYTES;
                return List.of(copy(plan, true, host, onDevice, elements, doubles),
                        copy(plan, false, host, onDevice, elements, doubles));
            } finally {
                cuda.freeHost(host);
                release(onDevice);
            }
        }

        private GpuCopyResult copy(GpuPlan plan, boolean toDevice, MemorySegment host, long onDevice, long elements,
                                   Kernels doubles) {
            double value = toDevice ? StreamValues.SCALAR : StreamValues.SCALAR + 1;
            long bytes = elements * Double.BYTES;
            long[] nanos = new long[plan.passes()];
            for (int pass = -plan.warmupPasses(); pass < plan.passes(); pass++) {
                if (toDevice) {
                    fillHost(host, elements, value);
                    fill(doubles, onDevice, Double.NaN, elements);
                } else {
                    fillHost(host, elements, Double.NaN);
                    fill(doubles, onDevice, value, elements);
                }
                cuda.synchronize();
                cuda.record(start);
                if (toDevice) {
                    cuda.copyToDevice(onDevice, host, bytes);
                } else {
                    cuda.copyToHost(host, onDevice, bytes);
                }
                cuda.record(end);
                cuda.synchronize(end);
                long took = Math.max(1, Math.round(cuda.elapsedMillis(start, end) * 1e6));
                long wrong = toDevice ? mismatches(doubles, onDevice, value, elements) : hostMismatches(host, elements,
                        value);
                if (wrong != 0) {
                    throw new StreamValidationException("GPU pinned copy " + (toDevice ? "host to device" : "device "
                            + "to host") + " failed validation: " + wrong + " of " + elements + " doubles differ from "
                            + value);
                }
                if (pass >= 0) {
                    nanos[pass] = took;
                }
            }
            return new GpuCopyResult(toDevice, bytes, PassTimes.ofNanos(nanos));
        }

        private static void fillHost(MemorySegment host, long elements, double value) {
            for (long i = 0; i < elements; i++) {
                host.setAtIndex(JAVA_DOUBLE, i, value);
            }
        }

        private static long hostMismatches(MemorySegment host, long elements, double value) {
            long wrong = 0;
            for (long i = 0; i < elements; i++) {
                if (host.getAtIndex(JAVA_DOUBLE, i) != value) {
                    wrong++;
                }
            }
            return wrong;
        }

        @Override
        public void close() {
            for (long pointer : List.copyOf(allocations)) {
                cuda.free(pointer);
            }
            for (MemorySegment module : modules) {
                cuda.unloadModule(module);
            }
            cuda.destroyEvent(start);
            cuda.destroyEvent(end);
            arena.close();
        }
    }

    /** The working set label of Triad on memory the CPU allocated. */
    public static final String HOST_PAGEABLE = "host-pageable";
    /** Bytes of each of a sharing-curve CPU thread's three arrays. */
    static final long CPU_SLICE_ARRAY_BYTES = 32 * Units.MIB;
    /** Passes of each CPU thread in one sample of the CPU's Triad while the GPU streams. */
    static final int CPU_PASSES_PER_SAMPLE = 4;
    /** The longest a sharing-curve CPU thread waits for the others at the start of a sample. */
    static final long BARRIER_SECONDS = 120;
    /** Triads the GPU queues between two looks at whether the CPU's samples are done. */
    static final int GPU_LAUNCHES_PER_CHECK = 4;

    /** The array a kernel writes ('a', 'b' or 'c'), or 0 for a reduction. */
    static char writtenArray(StreamKernel kernel) {
        for (char array : new char[] {'a', 'b', 'c'}) {
            if (kernel.onlyWrites(array)) {
                return array;
            }
        }
        return 0;
    }
}
