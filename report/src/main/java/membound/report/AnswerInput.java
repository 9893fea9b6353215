package membound.report;

import java.util.List;

import membound.model.TrainerEstimate;
import membound.model.sweep.Sweeps;
import membound.report.chart.AnswerCharts;
import membound.vocabulary.BadInputException;

/**
 * Everything the one-page answer is drawn from (membound answer): the workload as given on the
 * profile's machine and on the compared ones, and the sweeps around it.
 *
 * @param workload         the workload's name
 * @param setup            the setup as given, in words
 * @param predictCommand   the membound predict command that gives the setup as given on the profile
 * @param tokens           tokens the setup trains on
 * @param asGiven          the setup as given on each machine, the profile's first
 * @param sizes            the model-size sweep, every model on every machine
 * @param maps             step time over bandwidth and model size: on the profile's machine, then on the first compared
 *                         machine (the bandwidth-limited one the answer is about, when the profile is not it)
 * @param markers          bandwidths marked on every map
 * @param precisions       training and fine-tuning in each precision on every machine
 * @param sharing          1..K users on every machine
 * @param mitigations      each mitigation on the profile's machine and on the first compared one
 * @param commandLine      the command that made the page
 * @param expected         the setup as given on the profile's machine with the trainer's fitted terms: what
 *                         {@code membound predict} prints first ("expected with trainer ..."); every other figure of the
 *                         page is the roofline bound, predict's second block
 */
public record AnswerInput(String workload, String setup, String predictCommand, long tokens, List<Sweeps.Point> asGiven,
                          List<Sweeps.Point> sizes, List<Sweeps.BandwidthMap> maps, List<AnswerCharts.Marker> markers,
                          List<Sweeps.VariantPoint> precisions, List<Sweeps.SharingPoint> sharing,
                          List<Sweeps.VariantPoint> mitigations, String commandLine,
                          TrainerEstimate expected) {

    public AnswerInput {
        asGiven = List.copyOf(asGiven);
        sizes = List.copyOf(sizes);
        maps = List.copyOf(maps);
        markers = List.copyOf(markers);
        precisions = List.copyOf(precisions);
        sharing = List.copyOf(sharing);
        mitigations = List.copyOf(mitigations);
        java.util.Objects.requireNonNull(expected, "expected");
        if (maps.isEmpty()) {
            throw new BadInputException("the answer needs the bandwidth map of the profile's machine: maps=0");
        }
        if (asGiven.isEmpty() || !asGiven.get(0).predicted()) {
            throw new BadInputException("the answer needs the setup as given predicted on the profile: error="
                    + (asGiven.isEmpty() ? "no machine" : asGiven.get(0).error()));
        }
    }

    /** The map of the profile's machine. */
    public Sweeps.BandwidthMap map() {
        return maps.get(0);
    }

    /** The setup as given on the profile's machine. */
    public Sweeps.Point profile() {
        return asGiven.get(0);
    }
}
