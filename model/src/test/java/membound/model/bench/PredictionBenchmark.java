package membound.model.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import membound.model.Estimator;
import membound.model.Prediction;
import membound.model.StepResult;
import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodePrediction;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightFormat;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;

/**
 * How many predictions per second the model makes: it is built for sweeps, and the issue asks for
 * 100,000 predictions in a few seconds.
 *
 * <p>Each call predicts the next of 24 (model, setup, machine) cases, so neither the JIT nor a cache
 * sees one input: presets from GPT-2 to Llama-3.3-70B and Mixtral, full/LoRA/QLoRA, every
 * checkpointing mode, DGX Spark, H100 and GH200 datasheet entries. {@code predict} is everything
 * {@code membound predict} prints (both bases, four bandwidth-sensitivity evaluations, the memory
 * footprint and its advice, the operation table); {@code step} is one basis only, the sweep path;
 * {@code decode} a decode prediction; {@code step32Layers} the step of Llama-3.1-8B (32 layers) in 24
 * setups on three machines, one (setup, machine) per call, so that no plan is ever reused (issue 18 asks for
 * 1,000,000 step predictions per second on one core); {@code step32LayersOnFourMachines} the same setups each on
 * the four machines the answer page compares, as its sweeps ask for them (the step is planned once per setup and
 * evaluated per machine); and {@code bandwidthSweep32Layers} the same steps each evaluated at 64 bandwidths, as the
 * page's bandwidth map runs them.
 *
 * <p>Expect a few microseconds per prediction once compiled: a step is about forty operations
 * (each counted once per layer kind, repeated by count), so the cost does not grow with the number
 * of layers. JIT compilation of this many code paths takes seconds on a small machine, hence the
 * long warmup.
 *
 * <p>HOW TO RUN (docs/model.md, "Speed"): {@code mvn -B -q -pl model -am verify -Dmembound.jmh=true
 * -Dtest=PredictionBenchmarkRunner -Dsurefire.failIfNoSpecifiedTests=false}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class PredictionBenchmark {

    record Case(Transformer model, TrainingSetup setup, Machine machine, DecodeSetup decode) {
    }

    private final List<Case> cases = new ArrayList<>();
    private int next;
    /** Llama-3.1-8B (32 layers) in 24 setups on three machines: the sweep workload. */
    private final List<Case> llama = new ArrayList<>();
    private int nextLlama;
    /** The machines the answer page compares by default. */
    private final Machine[] compared = {Machines.datasheet("dgx-spark"), Machines.datasheet("h100"),
            Machines.datasheet("gh200"), Machines.datasheet("h200")};
    private static final double[] SCALES = new double[64];

    static {
        for (int i = 0; i < SCALES.length; i++) {
            SCALES[i] = Math.pow(2, -3 + 6.0 * i / (SCALES.length - 1));
        }
    }

    @Setup
    public void setUp() {
        String[] models = {"gpt2", "llama-3.2-1b", "llama-3.1-8b", "llama-3.3-70b", "qwen2.5-7b", "mixtral-8x7b"};
        Machine[] machines = {Machines.datasheet("dgx-spark"), Machines.datasheet("h100"), Machines.datasheet("gh200")};
        FineTuning[] tunings = {FineTuning.full(), FineTuning.lora(16, LoraTarget.allLinear()),
                FineTuning.qlora(16, LoraTarget.allLinear())};
        String[] formats = {"Q4_0", "Q8_0", "bf16"};
        int i = 0;
        for (String model : models) {
            for (int variant = 0; variant < 4; variant++, i++) {
                TrainingSetup setup = TrainingSetup.builder()
                        .tokens(1_000_000_000L)
                        .sequenceLength(variant % 2 == 0 ? 2048 : 4096)
                        .gradientAccumulation(1 + variant * 3)
                        .checkpointing(Checkpointing.values()[i % 3])
                        .fineTuning(tunings[i % 3])
                        .build();
                DecodeSetup decode = new DecodeSetup(1024 << variant, 1 + variant, 256, WeightFormat.parse(formats[i % 3]),
                        null, null, 1);
                cases.add(new Case(Presets.get(model), setup, machines[i % 3], decode));
            }
        }
        Transformer eight = Presets.get("llama-3.1-8b");
        for (int k = 0; k < 24; k++) {
            TrainingSetup setup = TrainingSetup.builder()
                    .tokens(1_000_000_000L)
                    .sequenceLength(k % 2 == 0 ? 2048 : 8192)
                    .microBatchSize(1 + k % 4)
                    .gradientAccumulation(1 + (k / 3) % 8)
                    .checkpointing(Checkpointing.values()[k % 3])
                    .fineTuning(tunings[(k / 8) % 3])
                    .build();
            llama.add(new Case(eight, setup, machines[(k / 3) % 3], null));
        }
    }

    private Case nextCase() {
        Case c = cases.get(next);
        next = next + 1 == cases.size() ? 0 : next + 1;
        return c;
    }

    @Benchmark
    public Prediction predict() {
        Case c = nextCase();
        return Estimator.predict(c.model(), c.setup(), c.machine());
    }

    @Benchmark
    public StepResult step() {
        Case c = nextCase();
        return Estimator.step(c.model(), c.setup(), c.machine(), Basis.MEASURED);
    }

    /** The figure: one step of a 32-layer model (Llama-3.1-8B), planned and evaluated, per call. */
    @Benchmark
    public StepResult step32Layers() {
        Case c = llama.get(nextLlama);
        nextLlama = nextLlama + 1 == llama.size() ? 0 : nextLlama + 1;
        return Estimator.step(c.model(), c.setup(), c.machine(), Basis.MEASURED);
    }

    /**
     * The same steps as a sweep over machines asks for them (the answer page's tables: each setup on every compared
     * machine): one of the 24 setups on DGX Spark, H100, GH200 and H200 per call; JMH counts each machine as one
     * prediction. The machines' plans are the same rows (none offloads or prunes 2:4), so the step is planned once
     * and evaluated four times.
     */
    @Benchmark
    @OperationsPerInvocation(4)
    public double step32LayersOnFourMachines() {
        Case c = llama.get(nextLlama);
        nextLlama = nextLlama + 1 == llama.size() ? 0 : nextLlama + 1;
        double sum = 0;
        for (Machine machine : compared) {
            sum += Estimator.step(c.model(), c.setup(), machine, Basis.MEASURED).stepSeconds();
        }
        return sum;
    }

    /**
     * A bandwidth sweep of the same model: one plan evaluated at 64 bandwidths per call; JMH counts each
     * bandwidth as one prediction.
     */
    @Benchmark
    @OperationsPerInvocation(64)
    public double[] bandwidthSweep32Layers() {
        Case c = llama.get(nextLlama);
        nextLlama = nextLlama + 1 == llama.size() ? 0 : nextLlama + 1;
        return Estimator.bandwidthSweep(c.model(), c.setup(), c.machine(), SCALES);
    }

    @Benchmark
    public DecodePrediction decode() {
        Case c = nextCase();
        return DecodeEstimator.predict(c.model(), c.decode(), c.machine());
    }
}
