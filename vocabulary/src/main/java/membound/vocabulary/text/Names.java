package membound.vocabulary.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Close-match suggestions and name lists for one-line error messages. */
public final class Names {

    private Names() {
    }

    /** {@code "fp32, bf16, fp16"}: the lower-case labels of some enum constants. */
    public static String list(Enum<?>[] values) {
        return String.join(", ", labels(values));
    }

    public static List<String> labels(Enum<?>[] values) {
        List<String> labels = new ArrayList<>();
        for (Enum<?> value : values) {
            labels.add(value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return labels;
    }

    /**
     * {@code " (did you mean llama-3.1-8b?)"}, or the empty string when nothing is close. Close
     * means an edit distance of at most a third of the longer name, or one name containing the other.
     */
    public static String suggestion(String text, Collection<String> known) {
        List<String> close = closeMatches(text, known, 3);
        return close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)";
    }

    public static List<String> closeMatches(String text, Collection<String> known, int limit) {
        String wanted = normalize(text == null ? "" : text);
        List<String> matches = new ArrayList<>();
        List<Integer> distances = new ArrayList<>();
        for (String name : known) {
            String candidate = normalize(name);
            int distance = EditDistance.between(wanted, candidate);
            boolean contains = !wanted.isEmpty() && (candidate.contains(wanted) || wanted.contains(candidate));
            if (contains || distance <= Math.max(1, Math.max(wanted.length(), candidate.length()) / 3)) {
                matches.add(name);
                distances.add(contains ? Math.min(distance, 1) : distance);
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < matches.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt(distances::get));
        List<String> result = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, order.size()); i++) {
            result.add(matches.get(order.get(i)));
        }
        return result;
    }

    private static String normalize(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]", "");
    }
}
