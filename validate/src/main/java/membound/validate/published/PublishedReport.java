package membound.validate.published;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.validate.published.PublishedValidation.KindSummary;
import membound.validate.published.PublishedValidation.Result;
import membound.validate.published.PublishedValidation.RowResult;
import membound.validate.published.PublishedValidation.Term;
import membound.vocabulary.text.Launcher;

/** The published validation as text for people and as JSON for programs. */
public final class PublishedReport {

    /** Where a set-aside row's reason is wrapped: the summary is read in a terminal, never scrolled sideways. */
    static final int TEXT_COLUMNS = 120;


    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PublishedReport() {
    }

    /** The summary alone: the set, the fitted terms and the held-out errors by kind; every row is one flag away. */
    public static String text(Result result) {
        return text(result, false);
    }

    /**
     * The published validation for people. Without {@code rows}: the set, the fitted terms and the held-out errors by
     * kind, and the command that lists every row. With it, every row too, and each row's source, which names the
     * page or file it was read from.
     */
    public static String text(Result result, boolean rows) {
        StringBuilder out = new StringBuilder();
        out.append("published ground-truth set (").append(PublishedSet.RESOURCE).append("): ")
                .append(result.rows().size()).append(" rows;\npredicted from the catalog (measured basis: its "
                        + "published third-party measurements, where the hardware\nhas them; datasheet basis: its "
                        + "datasheet figures), with the fitted terms below\n");
        if (rows) {
            out.append('\n').append(String.format(Locale.ROOT, "%-4s %-8s %-8s %-15s %-12s %11s %11s %7s %11s %7s %11s %11s  %s%n",
                    "id", "kind", "split", "hardware", "engine", "published", "measured", "error", "datasheet",
                    "error", "roofline m.", "roofline d.", "model"));
            for (RowResult r : result.rows()) {
                var row = r.row();
                out.append(String.format(Locale.ROOT, "%-4s %-8s %-8s %-15s %-12s %11s %11s %7s %11s %7s %11s %11s  %s%n",
                        row.id(), row.kind().label(), row.split(), row.hardware(), row.engine(),
                        number(row.published()), number(r.measured()), percent(r.measuredError()), number(r.datasheet()),
                        percent(r.datasheetError()), number(r.rawMeasured()), number(r.rawDatasheet()), row.model()));
            }
            out.append("\nunits: decode tokens/s of all the batch's streams together; prefill prompt tokens/s (a time to first token also holds the first decode step); training tokens/s per device. \"roofline\": "
                    + "the prediction without the fitted terms. A measured column of \"-\": the catalog has no "
                    + "published measurement of that hardware.\n");
        }
        out.append("\nfitted terms (fitted on the fit rows only, by the median |log(predicted/published)|, training's by its\n"
                + "mean; measured basis where the hardware has one" + (rows ? "" : "; efficiencies without their '-efficiency'; "
                + "--rows names every row") + "):\n");
        java.util.Map<String, List<Term>> inferenceGroups = new java.util.LinkedHashMap<>();
        for (Term t : result.terms()) {
            if (!rows) {
                // The summary puts a group's terms on one line: the group, its values, the rows they were fitted on.
                inferenceGroups.computeIfAbsent(t.name().substring(0, t.name().lastIndexOf('.')), g -> new ArrayList<>())
                        .add(t);
                continue;
            }
            // What each term means is one --rows away: by default a term is its value and the rows it was fitted on.
            out.append(String.format(Locale.ROOT, "  %-44s %8.4f %-2s %s%s%s%n", t.name(), t.value(), t.unit(),
                    rows ? t.meaning() + "; " : "", "fitted on " + (t.fittedOn().isEmpty() ? "no row" : rows || t.fittedOn().size() <= 8 ? rows(t.fittedOn())
                            : t.fittedOn().size() + " rows (--rows lists them)"),
                    t.atBound() == null ? "" : "; AT ITS " + t.atBound().toUpperCase(Locale.ROOT)
                            + (rows ? ": the model's structure does not fit these rows" : "")));
        }
        for (var group : inferenceGroups.entrySet()) {
            List<String> values = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            StringBuilder bounds = new StringBuilder();
            for (Term t : group.getValue()) {
                String name = t.name().substring(group.getKey().length() + 1).replace("-efficiency", "");
                boolean pooled = t.meaning().contains("the typical value");
                // Three significant figures, never in exponent form (an all-to-all dispatch is thousands of us).
                String value = t.value() >= 1000 ? String.format(Locale.ROOT, "%.0f", t.value())
                        : String.format(Locale.ROOT, "%.3g", t.value());
                values.add(String.format(Locale.ROOT, "%s %s%s%s", name, value, t.unit().isEmpty() ? "" : " "
                        + t.unit(), pooled ? " (typical)" : ""));
                if (!pooled) {
                    t.fittedOn().stream().filter(id -> !ids.contains(id)).forEach(ids::add);
                }
                if (t.atBound() != null) {
                    bounds.append("; ").append(name).append(" AT ITS ").append(t.atBound().toUpperCase(Locale.ROOT));
                }
            }
            out.append(wrapped(String.format(Locale.ROOT, "  %-24s ", group.getKey()), String.join(", ", values)
                    + "; fitted on " + (ids.isEmpty() ? "no row" : ids.size() <= 6 ? rows(ids) : ids.size() + " rows")
                    + bounds));
        }
        out.append("\nheld-out rows, median |error| by kind (measured basis; datasheet basis; the basis\neach row has), "
                + "the largest |error|,\nand the rows set aside (neither fitted nor judged):\n");
        for (KindSummary s : result.summaries()) {
            out.append(String.format(Locale.ROOT, "  %-9s %3d held out (%3d fit, %d aside): measured %7s, datasheet %7s, "
                            + "either %7s;%n              largest %7s (%s); target median %s%s: %s%n",
                    s.kind().label(), s.heldOut(), s.fit(), s.aside(), magnitude(s.medianMeasured()),
                    magnitude(s.medianDatasheet()), magnitude(s.medianPrimary()), magnitude(s.maxPrimary()),
                    s.maxRow() == null ? "-" : s.maxRow(), magnitude(s.target()),
                    Double.isNaN(s.limit()) ? "" : ", none over " + magnitude(s.limit()),
                    Double.isNaN(s.medianPrimary()) ? "no held-out row" : s.met() ? "met" : "NOT met"));
            // Every held-out row past the limit, not only the largest: what a "NOT met" rests on.
            List<String> over = overLimit(result, s).stream()
                    .map(r -> String.format(Locale.ROOT, "%s %+.1f%%", r.row().id(), 100 * r.primaryError())).toList();
            if (!over.isEmpty()) {
                out.append(wrapped("              over " + magnitude(s.limit()) + ": ", String.join(", ", over)));
            }
        }
        List<RowResult> asideRows = result.rows().stream().filter(r -> r.row().aside() != null).toList();
        if (!asideRows.isEmpty() && !rows) {
            out.append('\n').append(wrapped("set aside: ", String.join(", ", asideRows.stream().map(r -> r.row().id())
                    .toList()) + " (each with its reason: --rows)"));
        } else if (!asideRows.isEmpty()) {
            out.append("\nset aside:\n");
            asideRows.forEach(r -> out.append(wrapped("  " + r.row().id() + ": ", r.row().aside())));
        }
        if (!rows) {
            out.append("\nevery row, with its prediction, error and source: ").append(Launcher.command(
                    "validate --published --rows")).append('\n');
            return out.toString();
        }
        out.append("\nsources per row: ").append(PublishedSet.RESOURCE).append(" (source and quoted cell); rows' basis:\n");
        for (RowResult r : result.rows()) {
            out.append("  ").append(r.row().id()).append(": ").append(r.basis()).append("; ").append(r.terms())
                    .append("; ").append(r.row().source()).append('\n');
        }
        return out.toString();
    }

    public static String json(Result result) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("set", PublishedSet.RESOURCE);
        ArrayNode rows = root.putArray("rows");
        for (RowResult r : result.rows()) {
            var row = r.row();
            ObjectNode n = rows.addObject();
            n.put("id", row.id());
            n.put("kind", row.kind().label());
            n.put("split", row.split());
            n.put("model", row.model());
            n.put("engine", row.engine());
            n.put("hardware", row.hardware());
            n.put("weights", row.weights());
            n.put("unit", row.unit());
            n.put("published", row.published());
            put(n, "predictedMeasured", r.measured());
            put(n, "errorMeasured", r.measuredError());
            put(n, "predictedDatasheet", r.datasheet());
            put(n, "errorDatasheet", r.datasheetError());
            put(n, "rooflineMeasured", r.rawMeasured());
            put(n, "rooflineDatasheet", r.rawDatasheet());
            n.put("terms", r.terms());
            n.put("basis", r.basis());
            n.put("source", row.source());
            n.put("quote", row.quote());
            if (row.aside() != null) {
                n.put("aside", row.aside());
            }
        }
        ArrayNode terms = root.putArray("fittedTerms");
        for (Term t : result.terms()) {
            ObjectNode n = terms.addObject();
            n.put("name", t.name());
            n.put("value", t.value());
            n.put("unit", t.unit());
            n.put("meaning", t.meaning());
            ArrayNode on = n.putArray("fittedOn");
            t.fittedOn().forEach(on::add);
            if (t.atBound() != null) {
                n.put("atSearchBound", t.atBound());
            }
        }
        ArrayNode kinds = root.putArray("heldOut");
        for (KindSummary s : result.summaries()) {
            ObjectNode n = kinds.addObject();
            n.put("kind", s.kind().label());
            n.put("rows", s.heldOut());
            n.put("fitRows", s.fit());
            put(n, "medianAbsErrorMeasured", s.medianMeasured());
            put(n, "medianAbsErrorDatasheet", s.medianDatasheet());
            put(n, "medianAbsError", s.medianPrimary());
            n.put("target", s.target());
            put(n, "maxAbsError", s.maxPrimary());
            n.put("maxRow", s.maxRow());
            put(n, "limit", s.limit());
            n.put("aside", s.aside());
            n.put("met", s.met());
            ArrayNode over = n.putArray("rowsOverLimit");
            overLimit(result, s).forEach(r -> over.addObject().put("id", r.row().id()).put("error", r.primaryError()));
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void put(ObjectNode n, String key, double value) {
        if (Double.isFinite(value)) {
            n.put(key, value);
        } else {
            n.putNull(key);
        }
    }

    private static String number(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String percent(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%+.1f%%", 100 * v) : "-";
    }

    private static String magnitude(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f%%", 100 * v) : "-";
    }

    /** Row ids, runs of consecutive ids of one kind shortened (l28-l40). */
    static String rows(java.util.List<String> ids) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < ids.size()) {
            int j = i;
            while (j + 1 < ids.size() && next(ids.get(j), ids.get(j + 1))) {
                j++;
            }
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(ids.get(i));
            if (j > i) {
                out.append(j == i + 1 ? ", " : "-").append(ids.get(j));
            }
            i = j + 1;
        }
        return out.toString();
    }

    private static boolean next(String a, String b) {
        String pa = a.replaceAll("[0-9]+$", "");
        String pb = b.replaceAll("[0-9]+$", "");
        if (!pa.equals(pb) || pa.length() == a.length() || pb.length() == b.length()) {
            return false;
        }
        return Integer.parseInt(b.substring(pb.length())) == Integer.parseInt(a.substring(pa.length())) + 1;
    }

    /** A kind's held-out rows whose |error| passes its limit, the largest first (none where the kind has no limit). */
    static List<RowResult> overLimit(Result result, KindSummary s) {
        return result.rows().stream()
                .filter(r -> r.row().kind() == s.kind() && r.row().heldOut() && r.row().aside() == null
                        && Double.isFinite(r.primaryError()) && Math.abs(r.primaryError()) > s.limit())
                .sorted(java.util.Comparator.comparingDouble((RowResult r) -> -Math.abs(r.primaryError())))
                .toList();
    }

    /** Reasons run to a few sentences: wrapped at word breaks under {@link #TEXT_COLUMNS}, continued under the text. */
    private static String wrapped(String head, String text) {
        StringBuilder out = new StringBuilder(head);
        String indent = " ".repeat(head.length());
        int column = head.length();
        boolean first = true;
        for (String word : text.split(" ")) {
            if (!first && column + 1 + word.length() > TEXT_COLUMNS) {
                out.append('\n').append(indent);
                column = indent.length();
                first = true;
            }
            if (!first) {
                out.append(' ');
                column++;
            }
            out.append(word);
            column += word.length();
            first = false;
        }
        return out.append('\n').toString();
    }
}
