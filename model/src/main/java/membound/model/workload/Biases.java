package membound.model.workload;

/**
 * Which linear layers carry a bias vector. GPT-2 has them everywhere but the output layer, Llama
 * nowhere, Qwen2 only on the query/key/value projections, gpt-oss on attention, experts and router,
 * Phi-3.5-MoE also on the output layer ({@code lm_head_bias}).
 */
public record Biases(boolean queryKeyValue, boolean attentionOutput, boolean mlp, boolean router, boolean outputHead) {

    public static final Biases NONE = new Biases(false, false, false, false);
    public static final Biases ALL = new Biases(true, true, true, true);

    public Biases(boolean queryKeyValue, boolean attentionOutput, boolean mlp, boolean router) {
        this(queryKeyValue, attentionOutput, mlp, router, false);
    }

    public Biases withOutputHead(boolean value) {
        return new Biases(queryKeyValue, attentionOutput, mlp, router, value);
    }
}
