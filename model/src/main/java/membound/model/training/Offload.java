package membound.model.training;

import java.util.Locale;

import membound.vocabulary.BadInputException;

/**
 * What is kept in host memory instead of the device's: optimizer states (with master weights and
 * the update itself, as ZeRO-Offload does) and/or the weights (streamed in for every forward and
 * backward pass, as ZeRO-Infinity does). On a unified-memory machine there is no other memory to
 * offload to.
 */
public record Offload(boolean optimizerStates, boolean weights) {

    public static final Offload NONE = new Offload(false, false);

    public boolean any() {
        return optimizerStates || weights;
    }

    /** {@code none}, {@code optimizer}, {@code weights}, {@code both} (or {@code optimizer,weights}). */
    public static Offload parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "none", "" -> NONE;
            case "optimizer", "optimizer-states", "optimizer_states" -> new Offload(true, false);
            case "weights", "parameters" -> new Offload(false, true);
            case "both", "all", "optimizer,weights", "weights,optimizer" -> new Offload(true, true);
            default -> throw new BadInputException("offload must be none, optimizer, weights or both: offload=" + text);
        };
    }

    public String label() {
        return optimizerStates && weights ? "optimizer states and weights"
                : optimizerStates ? "optimizer states" : weights ? "weights" : "none";
    }
}
