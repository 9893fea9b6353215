package membound.model.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

import membound.vocabulary.BadInputException;

/**
 * Typed access to a {@code config.json} object with one-line errors. A field that is absent takes
 * the default the Transformers library gives it for the config's {@code model_type} (where the
 * library has one); a field that is absent without a default is an error. Every field read is
 * remembered, so that a field that changes the shape and was not read can be refused by name.
 */
final class ConfigFields {

    final JsonNode root;
    final String origin;
    private final Map<String, Object> defaults;
    private final Set<String> read = new HashSet<>();

    ConfigFields(JsonNode root, String origin, Map<String, Object> defaults) {
        this.root = root;
        this.origin = origin;
        this.defaults = defaults;
    }

    /** The fields read so far. */
    Set<String> read() {
        return Collections.unmodifiableSet(read);
    }

    /** Whether the config itself gives the field (a null counts as given: it means "none"). */
    boolean given(String field) {
        read.add(field);
        return root.has(field);
    }

    int requiredInt(String field) {
        JsonNode node = node(field);
        if (node != null && node.isNull()) {
            // A shape the model cannot be built without, written as null: not "use the default" (Transformers would
            // fail on it too), and never silently the model_type's default.
            throw new BadInputException("config.json " + field + " must be a positive integer, not null: file=" + origin
                    + ", " + field + "=null");
        }
        if (node == null) {
            Object fallback = defaults.get(field);
            if (fallback instanceof Integer value) {
                return value;
            }
            throw new BadInputException("config.json must have " + field + ": file=" + origin + ", " + field + "=<missing>");
        }
        return toInt(field, node);
    }

    int optionalInt(String field, int fallback) {
        JsonNode node = node(field);
        if (node == null || node.isNull()) {
            return defaults.get(field) instanceof Integer value ? value : fallback;
        }
        return toInt(field, node);
    }

    /**
     * A count that may be zero, or null to mean "none" (0): DeepSeek's {@code q_lora_rank},
     * {@code n_routed_experts}, {@code num_nextn_predict_layers}; absent, the default or 0.
     */
    int nullableInt(String field) {
        JsonNode node = node(field);
        if (node == null) {
            return defaults.get(field) instanceof Integer value ? value : 0;
        }
        if (node.isNull()) {
            return 0;
        }
        if (!node.isIntegralNumber() || node.longValue() < 0 || node.longValue() > Integer.MAX_VALUE) {
            throw new BadInputException(field + " must be zero or a positive integer: file=" + origin + ", " + field + "=" + node);
        }
        return node.intValue();
    }

    private int toInt(String field, JsonNode node) {
        if (!node.isIntegralNumber() || node.longValue() <= 0 || node.longValue() > Integer.MAX_VALUE) {
            throw new BadInputException(field + " must be a positive integer: file=" + origin + ", " + field + "=" + node);
        }
        return node.intValue();
    }

    double number(String field, double fallback) {
        return scalar(field, fallback, Double.class, n -> n.isNumber() && n.doubleValue() >= 0, "a number of zero or more",
                JsonNode::doubleValue);
    }

    boolean bool(String field, boolean fallback) {
        return scalar(field, fallback, Boolean.class, JsonNode::isBoolean, "true or false", JsonNode::booleanValue);
    }

    String text(String field, String fallback) {
        return scalar(field, fallback, String.class, JsonNode::isTextual, "a string", JsonNode::textValue);
    }

    /** A scalar field: absent or null, the model_type's default or {@code fallback}; of the wrong kind, an error. */
    private <T> T scalar(String field, T fallback, Class<T> type, Predicate<JsonNode> fits, String rule,
                         Function<JsonNode, T> value) {
        JsonNode node = node(field);
        if (node == null || node.isNull()) {
            Object preset = defaults.get(field);
            return type.isInstance(preset) ? type.cast(preset) : fallback;
        }
        if (!fits.test(node)) {
            throw new BadInputException(field + " must be " + rule + ": file=" + origin + ", " + field + "=" + node);
        }
        return value.apply(node);
    }

    /** The strings of the list {@code field}; null if there is no such list. */
    List<String> texts(String field) {
        JsonNode node = list(field);
        if (node == null) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw new BadInputException(field + " must be a list of strings: file=" + origin + ", " + field + "=" + node);
            }
            values.add(item.textValue());
        }
        return values;
    }

    /** The integers (zero or more) of the list {@code field}; empty if there is no such list. */
    List<Integer> indices(String field) {
        JsonNode node = list(field);
        List<Integer> values = new ArrayList<>();
        if (node == null) {
            return values;
        }
        for (JsonNode item : node) {
            if (!item.isIntegralNumber() || item.longValue() < 0 || item.longValue() > Integer.MAX_VALUE) {
                throw new BadInputException(field + " must be a list of layer indices: file=" + origin + ", " + field + "=" + node);
            }
            values.add(item.intValue());
        }
        return values;
    }

    private JsonNode list(String field) {
        JsonNode node = node(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new BadInputException(field + " must be a list: file=" + origin + ", " + field + "=" + node);
        }
        return node;
    }

    private JsonNode node(String field) {
        read.add(field);
        return root.get(field);
    }
}
