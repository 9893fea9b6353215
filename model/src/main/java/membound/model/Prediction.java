package membound.model;

import java.util.List;

import membound.model.memory.MemoryFootprint;
import membound.model.roofline.CeilingLine;
import membound.model.training.TrainingSetup;

/**
 * A training prediction: the step on measured ceilings and, beside it, on datasheet ceilings; the
 * bandwidth sensitivity; the memory footprint; every operation with its roofline; the ceilings it
 * used with their sources; and notes on anything the model changed or assumed.
 *
 * @param datasheet the step on datasheet ceilings, or null when the machine has no datasheet figures (see
 *        {@link membound.model.machine.Machine#datasheetUnknown}; the notes say why)
 * @param datasheetDifference (datasheet - measured) / measured step time: negative when the
 *        datasheet promises a faster step than the measured ceilings give; NaN when there is no datasheet step
 * @param expected the step with the trainer's terms ({@link TrainerEstimate}): the answer; {@code measured} and
 *        {@code datasheet} are the roofline, the bound it is printed beside
 */
public record Prediction(String workload, String workloadSource, long parameters, long activeParameters,
                         double trainableParameters, TrainingSetup setup, String machine, String machineName,
                         String machineSource, String parallelLink, StepResult measured, StepResult datasheet,
                         double datasheetDifference, Sensitivity sensitivity, MemoryFootprint memory,
                         List<OperationRow> operations, List<CeilingLine> measuredCeilings, List<CeilingLine> datasheetCeilings,
                         List<String> notes, TrainerEstimate expected) {

    public Prediction {
        operations = List.copyOf(operations);
        measuredCeilings = List.copyOf(measuredCeilings);
        datasheetCeilings = List.copyOf(datasheetCeilings);
        notes = List.copyOf(notes);
    }

    /** True when the machine has datasheet figures to predict on (else {@link #datasheet} is null). */
    public boolean datasheetKnown() {
        return datasheet != null;
    }
}
