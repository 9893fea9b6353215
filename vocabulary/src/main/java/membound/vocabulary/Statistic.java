package membound.vocabulary;

/**
 * Which statistic of a distribution a single figure is: its median, else its mean, else its best (the order a
 * distribution's typical figure is taken in), or a datasheet's nominal figure, which has no distribution.
 */
public enum Statistic implements Labelled {
    MEDIAN("median"),
    MEAN("mean"),
    BEST("best"),
    NOMINAL("nominal");

    private final String label;

    Statistic(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
