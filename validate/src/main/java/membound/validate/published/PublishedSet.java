package membound.validate.published;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import membound.model.workload.HuggingFaceConfig;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.validate.published.PublishedRow.Kind;
import membound.vocabulary.BadInputException;

/**
 * The committed ground-truth set: published decode, prefill and training throughputs with their
 * sources, and the models they name. The split is fixed by a rule, not chosen: within each kind, in
 * file order, every third row is held out ({@link #heldOutByRule}); the loader refuses a file whose
 * split column disagrees with the rule, so no row can be moved between fit and held-out after the fact.
 */
public final class PublishedSet {

    static final String DIRECTORY = "/membound/validate/published/";
    public static final String RESOURCE = DIRECTORY + "published.tsv";
    private static final int COLUMNS = 20;

    private final List<PublishedRow> rows;

    private PublishedSet(List<PublishedRow> rows) {
        this.rows = List.copyOf(rows);
    }

    public List<PublishedRow> rows() {
        return rows;
    }

    /** The committed set. */
    public static PublishedSet load() {
        return parse(text(RESOURCE), RESOURCE);
    }

    /** A row's date column: an ISO day (2025-10-14), or "-" where the source gives none. */
    private static LocalDate date(String text, String origin, int line) {
        if (text.equals("-")) {
            return null;
        }
        try {
            return LocalDate.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new BadInputException(origin + " line " + line + ": date must be a day as 2025-10-14 or -: date="
                    + text);
        }
    }

    /** The held-out rule: the 3rd, 6th, 9th ... row of each kind in file order. */
    public static boolean heldOutByRule(int positionInKind) {
        return positionInKind % 3 == 0;
    }

    static PublishedSet parse(String text, String origin) {
        List<PublishedRow> rows = new ArrayList<>();
        Map<Kind, Integer> position = new EnumMap<>(Kind.class);
        String[] lines = text.split("\n", -1);
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            int number = i + 1;
            String[] f = line.split("\t", -1);
            if (f.length != COLUMNS) {
                throw new BadInputException(origin + " line " + number + ": a row must have " + COLUMNS
                        + " tab-separated columns: columns=" + f.length);
            }
            Kind kind = Kind.parse(f[1], number);
            int inKind = position.merge(kind, 1, Integer::sum);
            boolean heldOut = switch (f[2]) {
                case "held-out" -> true;
                case "fit" -> false;
                default -> throw new BadInputException(origin + " line " + number + ": split must be fit or held-out: "
                        + "split=" + f[2]);
            };
            if (heldOut != heldOutByRule(inKind)) {
                throw new BadInputException(origin + " line " + number + ": split must follow the rule (every third "
                        + kind.label() + " row held out): split=" + f[2]);
            }
            boolean unitKnown = kind == Kind.TRAINING ? f[15].equals(PublishedRow.TOKENS_PER_DEVICE)
                    || f[15].equals(PublishedRow.SAMPLES) || f[15].equals(PublishedRow.SECONDS_PER_STEP)
                    : f[15].equals(PublishedRow.TOKENS)
                    || kind == Kind.PREFILL && f[15].equals(PublishedRow.TIME_TO_FIRST_TOKEN);
            if (!unitKnown) {
                throw new BadInputException(origin + " line " + number + ": unit must be " + (kind == Kind.TRAINING
                        ? "tokens/s/device, samples/s or s/step" : kind == Kind.PREFILL ? "tokens/s or "
                        + PublishedRow.TIME_TO_FIRST_TOKEN : "tokens/s") + " for a " + kind.label() + " row: unit="
                        + f[15]);
            }
            if (f[16].isBlank() || f[17].isBlank()) {
                throw new BadInputException(origin + " line " + number + ": a row must name its source and quote it");
            }
            rows.add(new PublishedRow(number, f[0], kind, heldOut, f[3], f[4], f[5], f[6], integer(f[7], 1),
                    integer(f[8], 0), integer(f[9], 0), integer(f[10], 1), f[11], f[12], f[13],
                    Double.parseDouble(f[14]), f[15], f[16], f[17], f[18].equals("-") ? null : f[18],
                    date(f[19], origin, number)));
        }
        return new PublishedSet(rows);
    }

    private static int integer(String text, int absent) {
        return text.equals("-") ? absent : Integer.parseInt(text);
    }

    private static final Map<String, Transformer> MODELS = new HashMap<>();

    /**
     * The model a row names: a preset ({@code llama-3.1-8b}), a committed published config.json
     * ({@code config:qwen3-14b.json}) or an MPT size of llm-foundry's benchmark tables ({@code mpt:7b}, at the
     * row's sequence length: MPT's benchmark models learn their position embeddings).
     */
    public static synchronized Transformer model(PublishedRow row) {
        String key = row.model().startsWith("mpt:") ? row.model() + "@" + row.tokens() : row.model();
        return MODELS.computeIfAbsent(key, k -> {
            if (row.model().startsWith("config:")) {
                String file = row.model().substring("config:".length());
                return HuggingFaceConfig.parse(text(DIRECTORY + "models/" + file), file, file.replace(".json", ""));
            }
            if (row.model().startsWith("mpt:")) {
                return MptSizes.transformer(row.model().substring("mpt:".length()), row.tokens());
            }
            return Presets.get(row.model());
        });
    }

    static String text(String resource) {
        try (InputStream in = PublishedSet.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            StringBuilder out = new StringBuilder();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    out.append(line).append('\n');
                }
            }
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
