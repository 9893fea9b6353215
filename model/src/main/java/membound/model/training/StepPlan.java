package membound.model.training;

import java.util.List;

import membound.model.roofline.Operation;
import membound.model.roofline.OperationList;
import membound.model.workload.Workload;
import membound.vocabulary.Precision;

/**
 * A training step as operations, with what the memory model and the report need to know about
 * how the work was laid out on one device.
 *
 * @param rows the step's operations by column (see {@link OperationList}): forward, backward, recompute, then
 *        the optimizer, communication and offloading
 * @param parametersOnDevice base parameters one device holds (all of them divided by tensor x pipeline stages)
 * @param trainableParameters parameters that get gradients, whole model (adapters only for LoRA/QLoRA)
 * @param trainableOnDevice trainable parameters on one device before ZeRO sharding
 * @param weightBitsPerParameter stored bits of a base weight (precision, NF4 for QLoRA, pruning)
 * @param offloadsOptimizer optimizer states and update live in host memory
 * @param offloadsWeights weights live in host memory and are streamed in
 * @param shardDivisor what ZeRO divides the device's parameters by: the ranks they are sharded over (the data x
 *        context parallel group, the hybrid shard group, the experts' own group, weighted by their shares)
 */
public record StepPlan(Workload workload, TrainingSetup setup, OperationList rows, Precision computePrecision,
                       double parametersOnDevice, double trainableParameters, double trainableOnDevice,
                       double weightBitsPerParameter, boolean offloadsOptimizer, boolean offloadsWeights,
                       List<String> notes, double shardDivisor) {

    public StepPlan {
        notes = notes.isEmpty() ? List.of() : List.copyOf(notes);
    }

    /** The step's operations as records, in order: forward, backward, recompute, then the rest. */
    public List<Operation> operations() {
        return rows.operations();
    }
}
