package membound.model.workload;

import membound.vocabulary.BadInputException;

/**
 * Local attention on some layers: each query sees at most {@code tokens} keys there (gpt-oss: 128
 * tokens on every other layer). Attention FLOPs and the KV cache of those layers stop growing
 * with the context.
 */
public record SlidingWindow(int tokens, int layers) {

    public static final SlidingWindow NONE = new SlidingWindow(0, 0);

    public SlidingWindow {
        if (tokens < 0 || layers < 0 || (tokens == 0) != (layers == 0)) {
            throw new BadInputException("sliding window needs both a positive window and a positive layer count, or neither: "
                    + "slidingWindowTokens=" + tokens + ", slidingWindowLayers=" + layers);
        }
    }

    public boolean present() {
        return layers > 0;
    }
}
