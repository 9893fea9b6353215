package membound.model;

import java.util.List;

/**
 * The expected step of a training setup under a trainer's terms ({@link membound.model.trainer.Trainer}): the
 * roofline step (the bound, {@link Prediction#measured()}) plus what the trainer's fitted terms add, on both bases.
 * {@code predict} prints this as the answer and the roofline beside it as the bound.
 *
 * @param trainer the trainer's id ({@code typical} when none was named)
 * @param named whether the user named the trainer ({@code --trainer}) or the default applied
 * @param terms where the terms come from and each value with the rows it was fitted on
 * @param addedSeconds what the terms add to the measured-basis roofline step
 * @param added what each term adds to it (the terms that add nothing left out), largest first
 * @param datasheetStepSeconds NaN where the machine has no datasheet step
 */
public record TrainerEstimate(String trainer, String trainerName, boolean named, List<String> terms,
                              double stepSeconds, double tokensPerSecond, double totalSeconds, double mfu,
                              double addedSeconds, double datasheetStepSeconds, double datasheetTokensPerSecond,
                              double datasheetTotalSeconds, double datasheetMfu, List<Added> added) {

    public TrainerEstimate {
        terms = List.copyOf(terms);
        added = List.copyOf(added);
    }

    /**
     * One term's share of what the trainer adds: its name, the seconds it adds on the measured basis (negative for an
     * efficiency above 1) and what it scaled (seconds of which kernels, or a count of runs times a cost).
     */
    public record Added(String term, double seconds, String scaled) {
    }
}
