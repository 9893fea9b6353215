package membound.model.training;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import membound.vocabulary.BadInputException;

/**
 * What is trained: every weight (full), or low-rank adapters of rank r on the target modules with
 * the base frozen in the weight precision (LoRA: Hu et al. 2021) or in 4-bit NormalFloat (QLoRA:
 * Dettmers et al. 2023).
 */
public record FineTuning(Mode mode, int rank, Set<LoraTarget> targets) {

    public enum Mode {
        FULL, LORA, QLORA;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * NF4 with double quantization: 4 bits per weight plus 0.127 bits of quantization constants
     * (one FP8 absmax per 64 weights, one FP32 per 256 of those): Dettmers et al. 2023, section 3.
     */
    public static final double QLORA_BASE_BITS_PER_WEIGHT = 4.127;

    public FineTuning {
        if (mode == null) {
            throw new BadInputException("fine-tuning mode must be full, lora or qlora");
        }
        if (mode == Mode.FULL) {
            rank = 0;
            targets = Set.of();
        } else {
            if (rank <= 0) {
                throw new BadInputException("lora rank must be positive: loraRank=" + rank);
            }
            if (targets == null || targets.isEmpty()) {
                throw new BadInputException("lora targets must name at least one module: loraTargets=" + targets);
            }
            targets = Collections.unmodifiableSet(EnumSet.copyOf(targets));
        }
    }

    public static FineTuning full() {
        return new FineTuning(Mode.FULL, 0, Set.of());
    }

    public static FineTuning lora(int rank, Set<LoraTarget> targets) {
        return new FineTuning(Mode.LORA, rank, targets);
    }

    public static FineTuning qlora(int rank, Set<LoraTarget> targets) {
        return new FineTuning(Mode.QLORA, rank, targets);
    }

    public boolean adapters() {
        return mode != Mode.FULL;
    }

    public boolean targets(LoraTarget target) {
        return targets.contains(target);
    }
}
