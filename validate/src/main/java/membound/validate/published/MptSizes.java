package membound.validate.published;

import java.util.Locale;

import membound.model.workload.HuggingFaceConfig;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;

/** The MPT sizes of llm-foundry's benchmark tables, read as GPT-2-layout configs (see {@code mpt-sizes.tsv}). */
final class MptSizes {

    private static final String RESOURCE = PublishedSet.DIRECTORY + "mpt-sizes.tsv";
    private static final int VOCABULARY = 50368;

    private MptSizes() {
    }

    static Transformer transformer(String size, int sequence) {
        for (String line : PublishedSet.text(RESOURCE).split("\n")) {
            if (line.startsWith("#") || line.isBlank() || line.startsWith("size\t")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f[0].equals(size)) {
                String json = String.format(Locale.ROOT, "{\"model_type\": \"gpt2\", \"n_embd\": %s, \"n_layer\": %s, "
                        + "\"n_head\": %s, \"n_positions\": %d, \"vocab_size\": %d, \"tie_word_embeddings\": true}",
                        f[1], f[2], f[3], sequence, VOCABULARY);
                return HuggingFaceConfig.parse(json, "llm-foundry mpt-" + size + " (mpt-sizes.tsv)", "mpt-" + size);
            }
        }
        throw new BadInputException("mpt size must be one of mpt-sizes.tsv's: size=" + size);
    }
}
