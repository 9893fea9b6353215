package membound.model.training;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/** The linear layers LoRA adapters attach to, named as PEFT's target modules name them ({@code q_proj}, ...). */
public enum LoraTarget {
    Q, K, V, O, GATE, UP, DOWN;

    /** Every linear layer: the QLoRA paper found adapters on all of them necessary to match full fine-tuning. */
    public static Set<LoraTarget> allLinear() {
        return EnumSet.allOf(LoraTarget.class);
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT) + "_proj";
    }

    /** {@code q,v} or {@code q_proj,v_proj} or {@code all}. */
    public static Set<LoraTarget> parseList(String text) {
        if (text == null || text.isBlank()) {
            throw new BadInputException("lora targets must list modules such as q,k,v,o,gate,up,down or all: loraTargets=" + text);
        }
        if (text.trim().equalsIgnoreCase("all") || text.trim().equalsIgnoreCase("all-linear")) {
            return allLinear();
        }
        Set<LoraTarget> targets = EnumSet.noneOf(LoraTarget.class);
        for (String part : text.split(",")) {
            String key = part.trim().toUpperCase(Locale.ROOT).replace("_PROJ", "");
            // Mixtral names its expert matrices w1 (gate), w3 (up), w2 (down).
            key = switch (key) {
                case "W1" -> "GATE";
                case "W3" -> "UP";
                case "W2" -> "DOWN";
                default -> key;
            };
            try {
                targets.add(LoraTarget.valueOf(key));
            } catch (IllegalArgumentException e) {
                throw new BadInputException("lora targets must be among q,k,v,o,gate,up,down: loraTargets=" + text
                        + Names.suggestion(part.trim(), Names.labels(values())));
            }
        }
        return targets;
    }
}
