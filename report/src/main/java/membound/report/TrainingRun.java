package membound.report;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import membound.model.OperationRow;
import membound.model.Sensitivity;
import membound.model.StepResult;
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
 * @param datasheetDifference (datasheet - measured) / measured step time
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TrainingRun(String workload, String workloadSource, long parameters, double trainableParameters,
                          Setup setup, String machine, String machineName, String machineSource, StepResult measured,
                          StepResult datasheet, double datasheetDifference, Sensitivity sensitivity,
                          Memory memory, List<OperationRow> operations, List<CeilingLine> measuredCeilings,
                          List<CeilingLine> datasheetCeilings, List<String> notes) {

    public TrainingRun {
        if (machine == null || machine.isBlank()) {
            throw new BadInputException("machine must be named: machine=" + machine);
        }
        if (measured == null || datasheet == null) {
            throw new BadInputException("prediction must have both bases: machine=" + machine);
        }
        if (!(measured.stepSeconds() > 0)) {
            throw new BadInputException("stepSeconds must be positive: stepSeconds=" + measured.stepSeconds());
        }
        operations = operations == null ? List.of() : List.copyOf(operations);
        measuredCeilings = measuredCeilings == null ? List.of() : List.copyOf(measuredCeilings);
        datasheetCeilings = datasheetCeilings == null ? List.of() : List.copyOf(datasheetCeilings);
        notes = notes == null ? List.of() : List.copyOf(notes);
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
