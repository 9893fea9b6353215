package membound.report;

import membound.vocabulary.BadInputException;

/**
 * One machine of a comparison: its prediction, or the one-line reason predict gave for having none
 * (an entry with no compute figure, say).
 */
public record MachineOutcome(String machine, TrainingRun run, String error) {

    public MachineOutcome {
        if (machine == null || machine.isBlank()) {
            throw new BadInputException("machine must be named: machine=" + machine);
        }
        if ((run == null) == (error == null)) {
            throw new BadInputException("outcome must be a prediction or an error, not both or neither: machine="
                    + machine);
        }
    }

    public static MachineOutcome of(TrainingRun run) {
        return new MachineOutcome(run.machine(), run, null);
    }

    public static MachineOutcome failed(String machine, String error) {
        return new MachineOutcome(machine, null, error);
    }
}
