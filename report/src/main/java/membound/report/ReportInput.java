package membound.report;

import java.util.List;

import membound.profile.Profile;
import membound.vocabulary.BadInputException;

/**
 * Everything a report is drawn from: the profile, and (when a workload was given) the predictions on
 * it and on the machines to compare with. Without a profile ({@code report --hardware NAME}) the page
 * draws the predictions on the catalog entry alone, and says the profile's charts need a profile.
 *
 * @param profile          the profile; null for a report on a catalog entry, which needs a workload
 * @param profileFile      where it was read from, as the user named it
 * @param trainingDeviceId the profile device the prediction ran on; null without a workload
 * @param machines         the profile's machine first, then the compared ones; empty without a workload
 * @param sensitivity      step time against bandwidth on the profile's machine; null without a workload
 * @param noWorkloadReason why there are no predictions; null when there are
 * @param commandLine      the command that made the report, shown at the foot of the page
 * @param operationsShown  slowest operations to list (0 for all)
 */
public record ReportInput(Profile profile, String profileFile, String trainingDeviceId, List<MachineOutcome> machines,
                          SensitivityCurve sensitivity, String noWorkloadReason, String commandLine,
                          int operationsShown) {

    public ReportInput {
        machines = machines == null ? List.of() : List.copyOf(machines);
        if ((profile == null) != (profileFile == null) || profile == null && machines.isEmpty()) {
            throw new BadInputException("report needs a profile, or a prediction on a catalog entry: profileFile="
                    + profileFile + ", machines=" + machines.size());
        }
        if (machines.isEmpty() == (noWorkloadReason == null)) {
            throw new BadInputException("report has predictions or says why not, not both: machines="
                    + machines.size() + ", noWorkloadReason=" + noWorkloadReason);
        }
        if (!machines.isEmpty() && machines.get(0).run() == null) {
            throw new BadInputException("the profile's own prediction must have succeeded: error="
                    + machines.get(0).error());
        }
        if (operationsShown < 0) {
            throw new BadInputException("operationsShown must be 0 (all) or positive: operationsShown="
                    + operationsShown);
        }
    }

    /** True when the report is on a profile; false for one on a catalog entry alone. */
    public boolean hasProfile() {
        return profile != null;
    }

    /** The prediction on the profile, or null without a workload. */
    public TrainingRun primary() {
        return machines.isEmpty() ? null : machines.get(0).run();
    }
}
