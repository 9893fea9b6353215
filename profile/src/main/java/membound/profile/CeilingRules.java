package membound.profile;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

import membound.vocabulary.AccessPattern;

/**
 * The calibrator's ceiling rules, as the profile's migration needs them: reading a profile written before schema 3
 * means giving its bandwidth entries the pattern their kernel stands for, completing its memory ceilings with the
 * patterns nothing measured, and choosing its compute ceilings, all exactly as the calibrator does for a new profile.
 * The rules are the calibrator's alone ({@code membound.calibrator.ceiling}); this interface lets the profile module,
 * which sits below it, call them without depending on it. The calibrator registers its implementation as a service.
 */
public interface CeilingRules {

    /** The pattern a kernel's figure stands for, by its name in a bandwidth entry or another tool's output. */
    Optional<KernelPattern> patternOf(String kernel);

    /**
     * A device's memory ceilings completed: every pattern of a level that has a copy ceiling and no update ceiling gets
     * the copy's, and every pattern main memory did not measure takes its nearest measured one; ceilings already taken
     * from another pattern are chosen again, so completing twice changes nothing.
     */
    List<LevelCeiling> complete(List<LevelCeiling> levels);

    /** A device's compute ceilings, chosen from its compute entries. */
    List<FlopCeiling> computeCeilings(List<ComputeEntry> compute);

    /**
     * @param pattern  the access pattern
     * @param standsIn whether the kernel only stands in for it (Scale for Copy) rather than defining it
     */
    record KernelPattern(AccessPattern pattern, boolean standsIn) {
        public KernelPattern {
            java.util.Objects.requireNonNull(pattern, "pattern");
        }
    }

    /** The rules on the class path (the calibrator's); a build without the calibrator cannot read an old profile. */
    static CeilingRules installed() {
        return Installed.RULES;
    }

    /** Loaded once, on first use. */
    final class Installed {
        private static final CeilingRules RULES = ServiceLoader.load(CeilingRules.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("reading a profile of schema 1 or 2 needs the calibrator's "
                        + "ceiling rules (membound-calibrator) on the class path: none is registered for "
                        + CeilingRules.class.getName()));

        private Installed() {
        }
    }
}
