package membound.benchmarks.training;

import membound.vocabulary.BadInputException;

/**
 * The sizes of the one-layer transformer language model of {@link TransformerTraining}: a vocabulary, the
 * hidden width, attention heads (head dimension = hidden / heads), the MLP width, and a batch of sequences.
 *
 * @param vocabulary tokens in the vocabulary (rows of the embedding, columns of the output layer)
 * @param sequence tokens per sequence (also the learned position table's length)
 * @param batch sequences per step
 */
public record TransformerShape(int vocabulary, int hidden, int heads, int intermediate, int sequence, int batch) {

    public TransformerShape {
        positive("vocabulary", vocabulary);
        positive("hidden", hidden);
        positive("heads", heads);
        positive("intermediate", intermediate);
        positive("sequence", sequence);
        positive("batch", batch);
        if (hidden % heads != 0) {
            throw new BadInputException("heads must divide hidden (" + hidden + "): heads=" + heads);
        }
        long rows = (long) sequence * batch;
        if (rows * Math.max(Math.max(vocabulary, 3L * hidden), intermediate) > Integer.MAX_VALUE
                || (long) batch * heads * sequence * sequence > Integer.MAX_VALUE) {
            throw new BadInputException("shape must keep every activation under 2^31 elements: " + this);
        }
    }

    /**
     * Parses {@code vocabulary,hidden,heads,intermediate,sequence,batch}, as the benchmark's parameter gives it.
     *
     * @throws BadInputException naming the text when it is not six positive whole numbers
     */
    public static TransformerShape parse(String text) {
        String[] parts = text.split(",");
        if (parts.length != 6) {
            throw new BadInputException("shape must be vocabulary,hidden,heads,intermediate,sequence,batch: shape="
                    + text);
        }
        int[] values = new int[6];
        for (int i = 0; i < 6; i++) {
            try {
                values[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new BadInputException("shape must be six whole numbers: shape=" + text);
            }
        }
        return new TransformerShape(values[0], values[1], values[2], values[3], values[4], values[5]);
    }

    public int headDimension() {
        return hidden / heads;
    }

    /** Tokens per step: batch × sequence, the rows of every activation. */
    public int rows() {
        return batch * sequence;
    }

    /**
     * Parameters: token embedding, learned positions, the block (RMSNorm scales, fused QKV, output projection,
     * MLP up and down) and the final norm and output layer; no biases, untied embeddings.
     */
    public long parameters() {
        long h = hidden;
        return (long) vocabulary * h + (long) sequence * h + h + 3 * h * h + h * h + h + 2 * h * intermediate + h
                + h * vocabulary;
    }

    @Override
    public String toString() {
        return vocabulary + "," + hidden + "," + heads + "," + intermediate + "," + sequence + "," + batch;
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new BadInputException(name + " must be positive: " + name + "=" + value);
        }
    }
}
