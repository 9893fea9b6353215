package membound.model.workload;

/**
 * The MLP's nonlinearity. Gated variants (SwiGLU, GeGLU) have a gate and an up projection, so
 * three weight matrices instead of two (Shazeer, "GLU Variants Improve Transformer", 2020).
 */
public enum Activation {
    GELU(false, 8),
    RELU(false, 1),
    SWIGLU(true, 5),
    GEGLU(true, 9);

    private final boolean gated;
    private final int flopsPerElement;

    Activation(boolean gated, int flopsPerElement) {
        this.gated = gated;
        this.flopsPerElement = flopsPerElement;
    }

    public boolean gated() {
        return gated;
    }

    /**
     * Approximate FLOPs per output element (tanh-GELU ~8, SiLU times the up value ~5). Elementwise
     * work is memory-bound on every device the model knows, so these only need the right order.
     */
    public int flopsPerElement() {
        return flopsPerElement;
    }
}
