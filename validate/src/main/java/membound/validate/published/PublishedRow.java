package membound.validate.published;

import java.time.LocalDate;
import java.util.Locale;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * One published measurement of the ground-truth set ({@code published/published.tsv}): what ran (model,
 * engine or trainer, hardware, weights, batch, tokens, context, accumulation, parallel layout, recompute,
 * fine-tuning), the published figure and its unit, the source and the quoted cell, and whether the row
 * may be used to fit ({@code fit}) or only to report ({@code held-out}).
 *
 * @param tokens decode: tokens generated; prefill: prompt tokens; training: sequence length
 * @param context decode: KV-cache depth of the average generated token; prefill and training: the sequence
 * @param aside null, or why the row is set aside: neither fitted on nor judged (a row whose published setup the
 *        model cannot reproduce, said with what it ran), still printed with its prediction
 * @param date null, or the day the source published the figure: an engine rule that took effect later
 *        ({@code engines.tsv}'s since column) did not run it
 */
public record PublishedRow(int line, String id, Kind kind, boolean heldOut, String model, String engine,
                           String hardware, String weights, int batch, int tokens, int context, int accumulation,
                           String parallel, String recompute, String finetune, double published, String unit,
                           String source, String quote, String aside, LocalDate date) {

    /** What a row measures. */
    public enum Kind {
        DECODE, PREFILL, TRAINING;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Kind parse(String text, int line) {
            for (Kind k : values()) {
                if (k.label().equals(text)) {
                    return k;
                }
            }
            throw new BadInputException("published.tsv line " + line + ": kind must be decode, prefill or training: "
                    + "kind=" + text);
        }
    }

    /** The weights column without its {@code ;kv=P} suffix: the weights as stored. */
    public String weightScheme() {
        int at = weights.indexOf(';');
        return at < 0 ? weights : weights.substring(0, at);
    }

    /** The KV cache's precision a {@code ;kv=P} suffix of the weights column names (fp8 in TensorRT-LLM's runs), else null. */
    public Precision kvCache() {
        int at = weights.indexOf(";kv=");
        return at < 0 ? null : Precision.parse(weights.substring(at + ";kv=".length()));
    }

    /** Training throughput per device: the unit the model predicts. */
    public static final String TOKENS_PER_DEVICE = "tokens/s/device";
    /** Sequences of the row's length per second of the whole job (MLPerf's logged throughput). */
    public static final String SAMPLES = "samples/s";
    /** Seconds per optimizer step of the whole job (tokens per step: sequence x micro-batch x accumulation x data parallel). */
    public static final String SECONDS_PER_STEP = "s/step";
    /** Decode and prefill throughput of one device. */
    public static final String TOKENS = "tokens/s";
    /**
     * A prefill published as a time to first token, converted to prompt tokens over that time: the time also holds the
     * first decode step.
     */
    public static final String TIME_TO_FIRST_TOKEN = "tokens/s (prompt tokens / time to first token)";

    public String split() {
        return heldOut ? "held-out" : "fit";
    }

    /** Whether the figure is time per unit of work (seconds per step): its error compares rates, published / predicted - 1. */
    public boolean timePerWork() {
        return SECONDS_PER_STEP.equals(unit);
    }
}
