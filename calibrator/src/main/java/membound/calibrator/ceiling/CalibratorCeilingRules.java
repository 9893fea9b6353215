package membound.calibrator.ceiling;

import java.util.List;
import java.util.Optional;

import membound.profile.CeilingRules;
import membound.profile.ComputeEntry;
import membound.profile.FlopCeiling;
import membound.profile.LevelCeiling;

/**
 * The calibrator's ceiling rules as the profile's migration calls them ({@link CeilingRules}, registered in
 * {@code META-INF/services}): reading a profile of schema 1 or 2 applies the same rules a new calibration does.
 */
public final class CalibratorCeilingRules implements CeilingRules {

    @Override
    public Optional<KernelPattern> patternOf(String kernel) {
        return MemoryCeilingRule.patternOf(kernel);
    }

    @Override
    public List<LevelCeiling> complete(List<LevelCeiling> levels) {
        return MemoryCeilingRule.complete(levels);
    }

    @Override
    public List<FlopCeiling> computeCeilings(List<ComputeEntry> compute) {
        return ComputeCeilingRule.ceilings(compute);
    }
}
