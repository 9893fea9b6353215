package membound.model.memory;

import java.util.ArrayList;
import java.util.List;

import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.Offload;
import membound.model.training.Optimizer;
import membound.model.training.Parallelism;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;

/**
 * When a configuration does not fit, tries the changes a user would reach for, one at a time and
 * then stacked in order of how little they change the training, and reports the ones that fit with
 * the footprint they would have (an empty list: nothing tried fits). Only memory is computed: a
 * layout and a footprint cost a microsecond.
 */
public final class FitAdvisor {

    private static final int MAX_ADVICE = 4;

    private FitAdvisor() {
    }

    public static List<MemoryFootprint.FitAdvice> advise(Workload workload, TrainingSetup setup, Machine machine, MemoryFootprint current) {
        List<Candidate> singles = new ArrayList<>();
        if (setup.checkpointing() != Checkpointing.FULL) {
            // Full checkpointing recomputes whole layers: the selective modules go with the mode they belong to.
            singles.add(new Candidate("--checkpointing full", setup.toBuilder().checkpointing(Checkpointing.FULL)
                    .recomputeModules(java.util.Set.of()).build()));
        }
        if (setup.microBatchSize() > 1) {
            singles.add(new Candidate("--micro-batch 1 --grad-accum " + setup.gradientAccumulation() * setup.microBatchSize(),
                    setup.toBuilder().microBatchSize(1)
                            .gradientAccumulation(setup.gradientAccumulation() * setup.microBatchSize()).build()));
        }
        if (setup.optimizer() == Optimizer.ADAMW) {
            singles.add(new Candidate("--optimizer adam8bit", setup.toBuilder().optimizer(Optimizer.ADAM_8BIT).build()));
        }
        if (workload instanceof Transformer && setup.fineTuning().mode() == FineTuning.Mode.FULL) {
            singles.add(new Candidate("--finetune lora", setup.toBuilder()
                    .fineTuning(FineTuning.lora(16, LoraTarget.allLinear())).build()));
        }
        if (workload instanceof Transformer && setup.fineTuning().mode() != FineTuning.Mode.QLORA) {
            singles.add(new Candidate("--finetune qlora", setup.toBuilder()
                    .fineTuning(FineTuning.qlora(16, LoraTarget.allLinear())).build()));
        }
        if (!machine.device().unifiedMemory() && machine.host() != null && machine.link(Link.Kind.HOST) != null
                && !setup.offload().optimizerStates()) {
            singles.add(new Candidate("--offload optimizer", setup.toBuilder().offload(new Offload(true, false)).build()));
        }

        List<MemoryFootprint.FitAdvice> advice = new ArrayList<>();
        for (Candidate c : singles) {
            addIfFits(workload, machine, c, current, advice);
        }
        if (advice.isEmpty()) {
            // Stack them, least intrusive first.
            TrainingSetup stacked = setup;
            // A later candidate that sets the same option (--finetune qlora after --finetune lora) replaces it.
            java.util.Map<String, String> flags = new java.util.LinkedHashMap<>();
            for (Candidate c : singles) {
                stacked = apply(stacked, c.setup, setup);
                flags.put(c.flags.split(" ")[0], c.flags);
                if (addIfFits(workload, machine, new Candidate(String.join(" ", flags.values()), stacked), current,
                        advice)) {
                    break;
                }
            }
        }
        Parallelism par = setup.parallelism();
        if (advice.size() < MAX_ADVICE && (machine.link(Link.Kind.PEER) != null || machine.link(Link.Kind.NETWORK) != null)) {
            for (int devices = Math.max(2, par.dataParallel() * 2); devices <= 64; devices *= 2) {
                Parallelism sharded = new Parallelism(devices, par.tensorParallel(), par.pipelineParallel(), 3, par.link());
                // One step of the wider layout: only its footprint is computed, and a run given as --steps may hold
                // fewer tokens than a step of more replicas.
                Candidate c = new Candidate("--data-parallel " + devices + " --zero 3",
                        setup.toBuilder().parallelism(sharded).steps(1).build());
                if (addIfFits(workload, machine, c, current, advice)) {
                    break;
                }
            }
        }
        return advice.subList(0, Math.min(MAX_ADVICE, advice.size()));
    }

    /** {@code base} with the field {@code change} differs in from {@code original}. */
    private static TrainingSetup apply(TrainingSetup base, TrainingSetup change, TrainingSetup original) {
        TrainingSetup.Builder b = base.toBuilder();
        if (change.checkpointing() != original.checkpointing()) {
            b.checkpointing(change.checkpointing()).recomputeModules(change.recomputeModules());
        }
        if (change.microBatchSize() != original.microBatchSize()) {
            b.microBatchSize(change.microBatchSize()).gradientAccumulation(change.gradientAccumulation());
        }
        if (change.optimizer() != original.optimizer()) {
            b.optimizer(change.optimizer());
        }
        if (!change.fineTuning().equals(original.fineTuning())) {
            b.fineTuning(change.fineTuning());
        }
        if (!change.offload().equals(original.offload())) {
            b.offload(change.offload());
        }
        return b.build();
    }

    private static boolean addIfFits(Workload workload, Machine machine, Candidate c, MemoryFootprint current,
                                     List<MemoryFootprint.FitAdvice> advice) {
        MemoryFootprint fp = MemoryModel.training(StepPlanner.plan(workload, c.setup, machine, false), machine);
        if (!fp.fits()) {
            return false;
        }
        advice.add(new MemoryFootprint.FitAdvice(c.flags, fp.totalBytes()));
        return true;
    }

    private record Candidate(String flags, TrainingSetup setup) {
    }
}
