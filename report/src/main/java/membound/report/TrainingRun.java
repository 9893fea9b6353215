package membound.report;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import membound.model.OperationRow;
import membound.model.Sensitivity;
import membound.model.StepResult;
import membound.model.TrainerEstimate;
import membound.model.roofline.CeilingLine;
import membound.vocabulary.BadInputException;

/**
 * The parts of one training prediction that a report shows, as {@code membound predict --format json}
 * gives them: the report reads the same output scripts read, so what the page shows is what predict
 * printed.
 *
 * @param machine             the machine id predict used ({@code profile:NAME.json}, {@code gh200})
 * @param machineName         what the machine is
 * @param machineSource       where its figures came from
 * @param datasheet           the step on datasheet ceilings; null where the machine has no datasheet figures
 * @param datasheetDifference (datasheet - measured) / measured step time; null with no datasheet step
 * @param expected            the step with the trainer's fitted terms (predict's first block); every other figure is
 *                            the roofline bound; null in a prediction that has none
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TrainingRun(String workload, String workloadSource, long parameters, double trainableParameters,
                          Setup setup, String machine, String machineName, String machineSource, StepResult measured,
                          StepResult datasheet, Double datasheetDifference, Sensitivity sensitivity,
                          Memory memory, List<OperationRow> operations, List<CeilingLine> measuredCeilings,
                          List<CeilingLine> datasheetCeilings, List<String> notes, TrainerEstimate expected) {

    public TrainingRun {
        if (machine == null || machine.isBlank()) {
            throw new BadInputException("machine must be named: machine=" + machine);
        }
        if (measured == null) {
            throw new BadInputException("prediction must have a step on measured ceilings: machine=" + machine);
        }
        if (datasheetDifference != null && datasheetDifference.isNaN()) {
            datasheetDifference = null; // how the model says "no datasheet step" in memory; predict's JSON says null
        }
        if ((datasheet == null) != (datasheetDifference == null)) {
            throw new BadInputException("prediction must give the datasheet step and its difference together: machine="
                    + machine + ", datasheet=" + (datasheet == null ? "null" : "present") + ", datasheetDifference="
                    + datasheetDifference);
        }
        if (!(measured.stepSeconds() > 0)) {
            throw new BadInputException("stepSeconds must be positive: stepSeconds=" + measured.stepSeconds());
        }
        operations = operations == null ? List.of() : List.copyOf(operations);
        measuredCeilings = measuredCeilings == null ? List.of() : List.copyOf(measuredCeilings);
        datasheetCeilings = datasheetCeilings == null ? List.of() : List.copyOf(datasheetCeilings);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** True when the machine has datasheet figures (else {@link #datasheet} is null: "unknown" on the page). */
    public boolean datasheetKnown() {
        return datasheet != null;
    }

    /** The training setup as predict echoes it (enum names as Jackson writes them: BF16, ADAMW, FULL). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Setup(double tokens, int sequenceLength, int microBatchSize, int gradientAccumulation,
                        String weightPrecision, String activationPrecision, String optimizerStatePrecision,
                        String optimizer, String checkpointing, boolean flashAttention, FineTuning fineTuning) {
    }

    /** Full fine-tuning, LoRA or QLoRA, with the adapter rank. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FineTuning(String mode, int rank) {
    }

    /**
     * The memory footprint per device against its capacity.
     *
     * @param totalBytes    everything the step keeps resident
     * @param capacityBytes what the device can address
     * @param fits          whether the total is within the capacity
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Memory(double totalBytes, double capacityBytes, String capacitySource, boolean fits) {
    }
}
