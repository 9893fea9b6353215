package membound.model.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.Estimator;
import membound.model.Prediction;
import membound.model.machine.Basis;
import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.training.MoeDispatcher;
import membound.model.training.Parallelism;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.vocabulary.BadInputException;

class TrainerTest {

    @Test
    void shouldPutTheTypicalTrainerFirstAsTheDefault() {
        assertEquals(Trainer.DEFAULT_ID, Trainer.all().get(0).id());
        assertEquals(Trainer.DEFAULT_ID, Trainer.defaultTrainer().id());
    }

    @Test
    void shouldFindATrainerByItsAliases() {
        assertEquals("megatron", Trainer.parse("Megatron-Bridge").id());
        assertEquals("llm-foundry", Trainer.parse("composer").id());
        assertEquals("pytorch-fsdp", Trainer.parse("fsdp2").id());
    }

    @Test
    void shouldRunEachTrainersAttentionKernelAsOfTheDay() {
        assertEquals(membound.model.training.AttentionKernel.FA3, Trainer.parse("megatron").attentionKernel(null));
        assertEquals(membound.model.training.AttentionKernel.FA2, Trainer.parse("llm-foundry").attentionKernel(null));
        // PyTorch's scaled_dot_product_attention runs cuDNN attention on H100 since PyTorch 2.5 (2024-10-17).
        assertEquals(membound.model.training.AttentionKernel.FA2,
                Trainer.parse("pytorch-fsdp").attentionKernel(java.time.LocalDate.parse("2024-05-09")));
        assertEquals(membound.model.training.AttentionKernel.FA3,
                Trainer.parse("pytorch-fsdp").attentionKernel(java.time.LocalDate.parse("2025-10-06")));
        assertEquals(membound.model.training.AttentionKernel.FA3, Trainer.parse("pytorch-fsdp").attentionKernel(null));
    }

    @Test
    void shouldNameTheCloseMatchesOfAnUnknownTrainer() {
        BadInputException e = assertThrows(BadInputException.class, () -> Trainer.parse("megatorn"));
        assertTrue(e.getMessage().contains("trainer=megatorn") && e.getMessage().contains("megatron"), e.getMessage());
    }

    @Test
    void shouldGiveEveryTrainerAllFourTermsWithTheRowsTheyWereFittedOn() {
        for (Trainer t : Trainer.all()) {
            assertEquals(Trainer.TERM_NAMES.size(), t.terms().size(), t.id());
            for (Trainer.Term term : t.terms()) {
                assertFalse(term.fittedOn().isEmpty(), t.id() + " " + term.name());
            }
            t.overheads();
        }
    }

    @Test
    void shouldRefuseAZeroStageTheTrainerLacks() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> Trainer.parse("llm.c").check(new Parallelism(8, 1, 1, 3, null)));
        assertTrue(e.getMessage().startsWith("zero must be at most 1 with trainer llm.c"), e.getMessage());
        BadInputException pp = assertThrows(BadInputException.class,
                () -> Trainer.parse("llm-foundry").check(new Parallelism(2, 1, 4, 0, null)));
        assertTrue(pp.getMessage().startsWith("pipeline-parallel must be 1 with trainer llm-foundry"), pp.getMessage());
    }

    @Test
    void shouldRefuseMegatronCoresAllToAllDispatcherOutsideMegatronCore() {
        Parallelism ep = new Parallelism(8, 1, 1, 1, 1, 8, 0, 0, null, 1);
        for (String id : List.of("llm-foundry", "pytorch-fsdp", "deepspeed", "hf-trainer", "llm.c", "pytorch-eager")) {
            BadInputException e = assertThrows(BadInputException.class,
                    () -> Trainer.parse(id).check(ep, MoeDispatcher.ALLTOALL), id);
            assertEquals("moe-dispatcher must be fused with trainer " + id + " (Megatron-Core's all-to-all token "
                    + "dispatcher runs in megatron and nemo; " + id + " routes tokens its own way): "
                    + "moe-dispatcher=alltoall, trainer=" + id, e.getMessage());
            Trainer.parse(id).check(ep, MoeDispatcher.FUSED);
        }
        for (String id : List.of("megatron", "nemo", "typical")) {
            Trainer.parse(id).check(ep, MoeDispatcher.ALLTOALL);
        }
    }

    @Test
    void shouldExpectASlowerStepThanTheRooflineBound() {
        Machine h100 = Machines.datasheet("h100-sxm");
        Prediction p = Estimator.predict(Presets.get("llama-3.2-1b"), TrainingSetup.builder().steps(1).build(), h100);
        assertEquals(Trainer.DEFAULT_ID, p.expected().trainer());
        assertFalse(p.expected().named());
        assertTrue(p.expected().stepSeconds() > p.measured().stepSeconds(), p.expected() + " vs " + p.measured());
        assertEquals(p.measured().stepSeconds() + p.expected().addedSeconds(), p.expected().stepSeconds(), 1e-12);
    }

    @Test
    void shouldSplitWhatTheTermsAddByTermLargestFirstSummingToTheWhole() {
        Machine h100 = Machines.datasheet("h100-sxm");
        Parallelism ep = new Parallelism(8, 1, 1, 1, 1, 8, 1, 0, null, 1);
        TrainingSetup setup = TrainingSetup.builder().parallelism(ep).moeDispatcher(MoeDispatcher.ALLTOALL).steps(1)
                .build();
        Prediction p = Estimator.predict(Presets.get("mixtral-8x7b"), setup, h100, Trainer.parse("megatron"), true);
        double sum = 0;
        double previous = Double.POSITIVE_INFINITY;
        for (var a : p.expected().added()) {
            assertTrue(Math.abs(a.seconds()) <= previous, "largest first: " + p.expected().added());
            previous = Math.abs(a.seconds());
            sum += a.seconds();
        }
        assertEquals(p.expected().addedSeconds(), sum, 1e-12);
        // Mixtral's 32 MoE layers, one forward dispatch each, at Megatron-Bridge's fitted cost per dispatch.
        var dispatch = p.expected().added().stream().filter(a -> a.term().equals("alltoall-dispatch")).findFirst()
                .orElseThrow();
        assertEquals(32 * Trainer.parse("megatron").value("alltoall-dispatch") * 1e-6, dispatch.seconds(), 1e-12);
        assertTrue(dispatch.scaled().startsWith("32 all-to-all dispatches x "), dispatch.scaled());
    }

    @Test
    void shouldRunTwoSparksOverTheirConnectX7AtItsBandwidth() {
        Machine spark = Machines.datasheet("dgx-spark");
        Link link = Estimator.parallelLink(spark, new Parallelism(2, 1, 1, 0, null, 2));
        // One GPU per node: the ring across two nodes is the network link itself.
        assertEquals(spark.link(Link.Kind.NETWORK).bandwidth().value(Basis.DATASHEET),
                link.bandwidth().value(Basis.DATASHEET), 1);
    }

    @Test
    void shouldSeeTheNetworkNotNvlinkAcrossNodes() {
        Machine h100 = Machines.datasheet("h100-sxm");
        double nvlink = h100.link(Link.Kind.PEER).bandwidth().value(Basis.DATASHEET);
        Link link = Estimator.parallelLink(h100, new Parallelism(64, 1, 1, 3, null, 8));
        // 2(n-1)/n / (2(g-1)/g / B_nvlink + 2(N-1)/N / (g B_net)) with n = 64, g = 8, N = 8, B_net = 50 GB/s.
        double expected = 2.0 * 63 / 64 / (2.0 * 7 / 8 / nvlink + 2.0 * 7 / 8 / 8 / 50e9);
        assertEquals(expected, link.bandwidth().value(Basis.DATASHEET), 1);
        assertTrue(link.bandwidth().value(Basis.DATASHEET) < nvlink);
    }

    @Test
    void shouldKeepADataParallelGroupInsideOneNodeOnNvlink() {
        Machine h100 = Machines.datasheet("h100-sxm");
        // Megatron's order: tp 4 x dp 2 fill a node of 8, the 8 pipeline stages span the nodes.
        Link link = Estimator.parallelLink(h100, new Parallelism(2, 4, 8, 0, null, 8));
        assertEquals(h100.link(Link.Kind.PEER), link);
        // tp 8 fills the node: each data-parallel group has one GPU per node and rides the NICs at 50 GB/s.
        Link across = Estimator.parallelLink(h100, new Parallelism(8, 8, 1, 1, null, 8));
        assertEquals(50e9, across.bandwidth().value(Basis.DATASHEET), 1);
    }

    @Test
    void shouldRefuseNodesThatDoNotDivideTheDevices() {
        BadInputException e = assertThrows(BadInputException.class, () -> new Parallelism(6, 1, 1, 0, null, 4));
        assertTrue(e.getMessage().startsWith("nodes must divide the devices"), e.getMessage());
    }
}
