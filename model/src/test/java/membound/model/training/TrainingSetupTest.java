package membound.model.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.Estimator;
import membound.model.Prediction;
import membound.model.StepResult;
import membound.model.TestMachines;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.memory.MemoryFootprint;
import membound.model.roofline.OperationClass;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/** Each knob has the effect it should, and impossible settings are refused in one line. */
class TrainingSetupTest {

    final Transformer llama1b = Presets.get("llama-3.2-1b");
    final Machine machine = TestMachines.simple(500e9, 100e12);

    @Test
    void shouldRefuseATensorParallelDegreeThatDoesNotDivideTheHeads() {
        TrainingSetup setup = TrainingSetup.builder().parallelism(new Parallelism(1, 3, 1, 0, null)).build();
        BadInputException e = assertThrows(BadInputException.class, () -> Estimator.predict(llama1b, setup, machine));
        assertEquals("tensorParallel must divide attentionHeads (32 in llama-3.2-1b): tensorParallel=3", e.getMessage());
    }

    @Test
    void shouldPaceAnUnevenPipelineByItsFullestStageAndRefuseMoreChunksThanLayers() {
        TrainingSetup uneven = TrainingSetup.builder().gradientAccumulation(8)
                .parallelism(new Parallelism(1, 1, 3, 0, null)).build();
        StepPlan plan = Estimator.plan(llama1b, uneven, machine);
        assertTrue(plan.notes().stream().anyMatch(n -> n.contains("the fullest stage, 6 layers")), plan.notes().toString());
        // 16 layers over 3 stages: the fullest holds 6 (x 8 micro-batches), and the output layer sits on another.
        assertEquals(6 * 8, plan.operations().stream().filter(o -> o.name().equals("qkv projection")).findFirst()
                .orElseThrow().count(), 1e-9);
        assertTrue(plan.operations().stream().noneMatch(o -> o.name().startsWith("output projection")));
        TrainingSetup four = TrainingSetup.builder().gradientAccumulation(8)
                .parallelism(new Parallelism(1, 1, 4, 0, null)).build();
        assertTrue(Estimator.plan(llama1b, four, machine).operations().stream()
                .anyMatch(o -> o.name().startsWith("output projection")), "an even split keeps the head on the last stage");
        TrainingSetup tooMany = TrainingSetup.builder()
                .parallelism(new Parallelism(1, 1, 4, 1, 5, 1, 0, 0, null, 1)).build();
        BadInputException e = assertThrows(BadInputException.class, () -> Estimator.predict(llama1b, tooMany, machine));
        assertEquals("pipeline stages x virtual stages must be at most the layers + 2 (16 in llama-3.2-1b; each chunk "
                + "holds a layer, the embedding or the loss, as Megatron's account_for_embedding_in_pipeline_split and "
                + "account_for_loss_in_pipeline_split place them): pipelineParallel=4, virtualStages=5", e.getMessage());
    }

    @Test
    void shouldRefuseZeroAndNegativeSizes() {
        assertEquals("sequenceLength must be positive: sequenceLength=0", assertThrows(BadInputException.class,
                () -> TrainingSetup.builder().sequenceLength(0).build()).getMessage());
        assertEquals("microBatchSize must be positive: microBatchSize=-2", assertThrows(BadInputException.class,
                () -> TrainingSetup.builder().microBatchSize(-2).build()).getMessage());
        assertEquals("tokens must be positive: tokens=0", assertThrows(BadInputException.class,
                () -> TrainingSetup.builder().tokens(0).build()).getMessage());
        assertEquals("dataParallel must be positive: dataParallel=0", assertThrows(BadInputException.class,
                () -> new Parallelism(0, 1, 1, 0, null)).getMessage());
        assertEquals("lora rank must be positive: loraRank=0", assertThrows(BadInputException.class,
                () -> FineTuning.lora(0, LoraTarget.allLinear())).getMessage());
    }

    @Test
    void shouldSayThatOffloadingOnUnifiedMemoryAddsNoCapacity() {
        Machine spark = Machines.datasheet("dgx-spark");
        TrainingSetup offloaded = TrainingSetup.builder().offload(new Offload(true, false)).build();
        Prediction p = Estimator.predict(llama1b, offloaded, spark);
        Prediction plain = Estimator.predict(llama1b, TrainingSetup.builder().build(), spark);
        assertTrue(p.notes().stream().anyMatch(n -> n.contains("unified memory") && n.contains("adds no capacity")), p.notes().toString());
        assertEquals(plain.memory().totalBytes(), p.memory().totalBytes());
        assertEquals(plain.measured().stepSeconds(), p.measured().stepSeconds());
    }

    @Test
    void shouldMoveOptimizerStatesToHostMemoryOnAGh200AndPayForTheTransfers() {
        Machine gh200 = Machines.datasheet("gh200");
        Prediction p = Estimator.predict(llama1b, TrainingSetup.builder().offload(new Offload(true, false)).build(), gh200);
        Prediction plain = Estimator.predict(llama1b, TrainingSetup.builder().build(), gh200);
        assertEquals(0, p.memory().optimizerStatesBytes());
        assertEquals(plain.memory().optimizerStatesBytes(), p.memory().hostBytes(), 1);
        assertTrue(p.measured().time(OperationClass.OFFLOAD.label()).seconds() > 0);
    }

    @Test
    void shouldRefuseToOffloadWhereTheMachineHasNoHostMemory() {
        BadInputException e = assertThrows(BadInputException.class, () -> Estimator.predict(llama1b,
                TrainingSetup.builder().offload(new Offload(true, false)).build(), Machines.datasheet("h100")));
        assertTrue(e.getMessage().startsWith("offload needs a host memory and a host link: machine=h100-sxm"), e.getMessage());
    }

    @Test
    void shouldSplitBandwidthEvenlyAmongTenantsWithoutACurveAndSaySo() {
        Prediction alone = Estimator.predict(llama1b, TrainingSetup.builder().build(), machine);
        Prediction shared = Estimator.predict(llama1b, TrainingSetup.builder().tenants(2).build(), machine);
        // Bandwidth and compute both halve: every operation takes twice as long.
        assertEquals(2 * alone.measured().stepSeconds(), shared.measured().stepSeconds(), 1e-9);
        assertTrue(shared.notes().stream().anyMatch(n -> n.contains("no measured tenants curve")), shared.notes().toString());
    }

    @Test
    void shouldUseTheMeasuredTenantsCurveWhenTheProfileHasOne() {
        Machine cpu = Machines.profile(Path.of("..", "results", "profiles", "examples", "dgx-spark-example.json"), "cpu",
                Overrides.NONE);
        Prediction shared = Estimator.predict(llama1b, TrainingSetup.builder().tenants(2).build(), cpu);
        assertTrue(shared.notes().stream().anyMatch(n -> n.contains("measured tenants curve")), shared.notes().toString());
        assertTrue(shared.measuredCeilings().stream().anyMatch(l -> Math.abs(l.value() - 57.0 / 108.0) < 1e-12
                && l.source().startsWith("measured tenants curve")), shared.measuredCeilings().toString());
    }

    @Test
    void shouldAllReduceGradientsOverTheLinkWithDataParallelism() {
        TrainingSetup two = TrainingSetup.builder().parallelism(new Parallelism(2, 1, 1, 0, null)).build();
        StepResult r = Estimator.step(llama1b, two, machine, Basis.MEASURED);
        // Ring all-reduce: 2 (n-1)/n x gradient bytes = 1 x 1.236e9 x 2 bytes over 100 GB/s.
        assertEquals(llama1b.parameters().total() * 2.0 / 100e9, r.time("communication").seconds(), 1e-9);
        assertEquals(2 * TrainingSetup.builder().build().tokensPerStep(), r.tokensPerStep());
    }

    @Test
    void shouldIdleAPipelineForItsBubble() {
        TrainingSetup piped = TrainingSetup.builder().gradientAccumulation(4).parallelism(new Parallelism(1, 1, 4, 0, null)).build();
        StepResult r = Estimator.step(llama1b, piped, machine, Basis.MEASURED);
        double work = r.time("forward").seconds() + r.time("backward").seconds();
        assertEquals(work * 3 / 4, r.time("pipeline bubble").seconds(), 1e-12);
    }

    @Test
    void shouldRunTwoFourSparseGemmsFasterWhereTheDeviceHasSparseUnits() {
        double dense = Estimator.step(llama1b, TrainingSetup.builder().build(), machine, Basis.MEASURED).time("forward").seconds();
        double sparse = Estimator.step(llama1b, TrainingSetup.builder().pruning(Pruning.STRUCTURED_2_4).build(), machine,
                Basis.MEASURED).time("forward").seconds();
        assertTrue(sparse < dense, sparse + " >= " + dense);
    }

    @Test
    void shouldHoldAQloraBaseInFourBitsAndOnlyAdaptersInTheOptimizer() {
        TrainingSetup qlora = TrainingSetup.builder().fineTuning(FineTuning.qlora(16, LoraTarget.allLinear())).build();
        MemoryFootprint fp = Estimator.predict(llama1b, qlora, machine).memory();
        double adapters = LoraParameters.count(llama1b, qlora.fineTuning());
        assertEquals(llama1b.parameters().total() * 4.127 / 8 + adapters * 2, fp.weightsBytes(), 1);
        assertEquals(adapters * 12, fp.optimizerStatesBytes(), 1);
    }

    @Test
    void shouldSayWhatWouldMakeATooLargeConfigurationFit() {
        Prediction p = Estimator.predict(Presets.get("llama-3.1-8b"), TrainingSetup.builder().build(),
                Machines.datasheet("dgx-spark"));
        assertTrue(!p.memory().fits());
        List<MemoryFootprint.FitAdvice> advice = p.memory().advice();
        assertTrue(advice.stream().anyMatch(a -> a.flags().equals("--optimizer adam8bit")), advice.toString());
        assertTrue(advice.stream().anyMatch(a -> a.flags().equals("--finetune lora")), advice.toString());
        assertTrue(advice.stream().allMatch(a -> a.totalBytes() <= p.memory().capacityBytes()), advice.toString());
    }

    @Test
    void shouldComputeFp8GemmsAtTheFp8Rate() {
        Machine h100 = Machines.datasheet("h100");
        double bf16 = Estimator.step(llama1b, TrainingSetup.builder().build(), h100, Basis.MEASURED).time("forward").seconds();
        double fp8 = Estimator.step(llama1b, TrainingSetup.builder().activationPrecision(Precision.FP8).build(), h100,
                Basis.MEASURED).time("forward").seconds();
        assertTrue(fp8 < bf16 * 0.8, fp8 + " vs " + bf16);
    }
}
