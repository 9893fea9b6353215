package membound.model.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
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
 * {@code decode} a decode prediction.
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

    @Benchmark
    public DecodePrediction decode() {
        Case c = nextCase();
        return DecodeEstimator.predict(c.model(), c.decode(), c.machine());
    }
}
