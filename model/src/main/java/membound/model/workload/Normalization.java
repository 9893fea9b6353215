package membound.model.workload;

/** LayerNorm has a scale and a shift per channel; RMSNorm only a scale (Zhang and Sennrich, 2019). */
public enum Normalization {
    LAYER_NORM(2, 8),
    RMS_NORM(1, 5);

    private final int parametersPerChannel;
    private final int flopsPerElement;

    Normalization(int parametersPerChannel, int flopsPerElement) {
        this.parametersPerChannel = parametersPerChannel;
        this.flopsPerElement = flopsPerElement;
    }

    public int parametersPerChannel() {
        return parametersPerChannel;
    }

    public int flopsPerElement() {
        return flopsPerElement;
    }
}
