package membound.model.workload;

/**
 * Which linear layers carry a bias vector. GPT-2 has them everywhere, Llama nowhere, Qwen2 only on
 * the query/key/value projections, gpt-oss on attention, experts and router.
 */
public record Biases(boolean queryKeyValue, boolean attentionOutput, boolean mlp, boolean router) {

    public static final Biases NONE = new Biases(false, false, false, false);
    public static final Biases ALL = new Biases(true, true, true, true);
}
