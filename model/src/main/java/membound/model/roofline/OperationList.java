package membound.model.roofline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;
import membound.vocabulary.RowOperation;

/**
 * A step's operations as rows of primitives: each row is one {@link Operation}, its numbers side by
 * side in one array, its kinds packed into one int, its name as two constant parts joined only when
 * the row is read as an {@link Operation}. Planning a step writes rows and evaluating it reads columns, so a sweep that
 * reuses one list (see {@link #clear()}) allocates nothing per operation; {@link #operations()}
 * gives the rows as records for tables and inspection.
 *
 * <p>The factory methods say how each kind of operation counts its FLOPs and bytes, once, so that
 * training, recompute and decode count them alike; the static ones build a single {@link Operation},
 * the instance ones ({@code add...}) write the same figures as a row. A row repeated zero times is
 * not kept: the {@code add...} methods then return -1, which {@link #shape} and {@link #rowWork}
 * ignore.
 */
public final class OperationList {

    /** Product shapes one row can carry (a backward GEMM runs two). */
    public static final int MAX_SHAPES = 2;

    private static final OperationClass[] CLASSES = OperationClass.values();
    private static final Kernel[] KERNELS = Kernel.values();
    private static final Precision[] PRECISIONS = Precision.values();
    private static final Placement[] PLACEMENTS = Placement.values();
    private static final AccessPattern[] PATTERNS = AccessPattern.values();
    private static final RowOperation[] ROW_OPERATIONS = RowOperation.values();
    private static final ProductShape.Layout[] LAYOUTS = ProductShape.Layout.values();
    /** Per shape: batch, m, n, k, layout ordinal. */
    static final int SHAPE_FIELDS = 5;

    /** Per row: the numbers, {@value #NUMBERS} doubles side by side (row-major: one row is written in one place). */
    static final int NUMBERS = 9;
    static final int COUNT = 0;
    static final int FLOPS = 1;
    static final int MODEL_FLOPS = 2;
    static final int BYTES_READ = 3;
    static final int BYTES_WRITTEN = 4;
    static final int LINK_BYTES = 5;
    static final int LINK_MESSAGES = 6;
    static final int ROW_ELEMENTS = 7;
    static final int ROW_LENGTH = 8;

    int size;
    String[] name;
    String[] suffix;
    /** Per row: class, kernel, precision, placement, pattern, shape count, row operation + 1, overlap, packed. */
    int[] codes;
    double[] numbers;
    double[] shapes;
    /** Rows are in class order (a single list written interleaved is sorted when read; see {@link #normalize()}). */
    private boolean sorted = true;
    /** Some rows are marked {@link #recomputed} and have no recompute row of their own yet. */
    private boolean marked;
    /** The class of the last row written (0 for none): a row of an earlier class unsorts the list. */
    private int lastClass;
    private List<Operation> materialized;
    /** Keeps rows repeated zero times: a list that builds one {@link Operation} as it is given. */
    private final boolean keepsEmptyRows;
    /** Keeps each row's name (a sweep's list does not: it is summed, never read row by row). */
    private final boolean keepsNames;

    public OperationList() {
        this(64);
    }

    public OperationList(int capacity) {
        this(Math.max(4, capacity), false);
    }

    private OperationList(int capacity, boolean keepsEmptyRows) {
        this(capacity, keepsEmptyRows, true);
    }

    private OperationList(int capacity, boolean keepsEmptyRows, boolean keepsNames) {
        this.keepsEmptyRows = keepsEmptyRows;
        this.keepsNames = keepsNames;
        allocate(capacity);
    }

    /**
     * A list for sweeps: its rows are summed by {@link Roofline#sums} and never read one by one, so it keeps
     * no names (storing a reference per row is most of what writing a row costs); reading its rows as
     * {@link Operation}s fails.
     */
    public static OperationList forSweeps(int capacity) {
        return new OperationList(Math.max(4, capacity), false, false);
    }

    /** No rows, and none can be added: what a plan made for the memory model alone holds. Shared: never written. */
    public static final OperationList NONE = new OperationList(0, false, true);

    /** A list of the given operations, in order. */
    public static OperationList of(List<Operation> operations) {
        OperationList list = new OperationList(operations.size());
        list.addAll(operations);
        return list;
    }

    private void allocate(int capacity) {
        name = new String[capacity];
        suffix = new String[capacity];
        codes = new int[capacity];
        numbers = new double[capacity * NUMBERS];
        shapes = new double[capacity * MAX_SHAPES * SHAPE_FIELDS];
    }

    private void grow(int needed) {
        if (needed <= codes.length) {
            return;
        }
        int capacity = Math.max(needed, 2 * codes.length);
        name = Arrays.copyOf(name, capacity);
        suffix = Arrays.copyOf(suffix, capacity);
        codes = Arrays.copyOf(codes, capacity);
        numbers = Arrays.copyOf(numbers, capacity * NUMBERS);
        shapes = Arrays.copyOf(shapes, capacity * MAX_SHAPES * SHAPE_FIELDS);
    }

    // ---- the packed codes ----

    /** Kinds an operation can be of: kernel, precision and placement, the bits 3 to 12 of its code. */
    static final int KINDS = 1 << 10;

    /** An operation's kind (kernel, precision, placement) as one index below {@link #KINDS}. */
    static int kindIndex(int code) {
        return (code >>> 3) & (KINDS - 1);
    }

    static int kindIndex(int kernel, int precision, int placement) {
        return kernel | precision << 3 | placement << 7;
    }

    static int classOf(int code) {
        return code & 0x7;
    }

    static int kernelOf(int code) {
        return (code >>> 3) & 0x7;
    }

    static int precisionOf(int code) {
        return (code >>> 6) & 0xF;
    }

    static int placementOf(int code) {
        return (code >>> 10) & 0x7;
    }

    static int patternOf(int code) {
        return (code >>> 13) & 0x7;
    }

    static int shapesOf(int code) {
        return (code >>> 16) & 0x7;
    }

    /** The row operation's ordinal, or -1. */
    static int rowOperationOf(int code) {
        return ((code >>> 19) & 0x1F) - 1;
    }

    static boolean overlapsOf(int code) {
        return (code & (1 << 24)) != 0;
    }

    /** A forward row computed again in the backward pass (see {@link #recomputed}). */
    static final int RECOMPUTED = 1 << 25;

    static boolean recomputedOf(int code) {
        return (code & RECOMPUTED) != 0;
    }

    private static int code(int operationClass, int kernel, int precision, int placement, int pattern,
                            boolean overlapsBackward) {
        return operationClass | kernel << 3 | precision << 6 | placement << 10 | pattern << 13
                | (overlapsBackward ? 1 << 24 : 0);
    }

    static {
        if (CLASSES.length > 8 || KERNELS.length > 8 || PRECISIONS.length > 16 || PLACEMENTS.length > 8
                || PATTERNS.length > 8 || MAX_SHAPES > 7 || ROW_OPERATIONS.length > 30) {
            throw new ExceptionInInitializerError("an operation's codes no longer fit their bits");
        }
    }

    /** Forgets every row, keeping the storage: for a sweep that plans step after step into one list. */
    public void clear() {
        size = 0;
        lastClass = 0;
        sorted = true;
        marked = false;
        materialized = null;
    }

    public int size() {
        return size;
    }

    // ---- writing rows ----

    /**
     * Appends one row; the same rules as {@link Operation}'s: a name, class, kernel and placement, finite
     * non-negative sizes (a null pattern is a copy, a null precision FP32).
     *
     * @param suffix appended to {@code name} when the row is read (null: none); both are constants in a
     *        sweep, so that no name is built per row
     * @return the row's index, or -1 when {@code count} is zero and the row was not kept
     */
    public int add(String name, String suffix, OperationClass operationClass, Kernel kernel, Precision precision,
                   Placement placement, double count, double flops, double modelFlops, double bytesRead,
                   double bytesWritten, AccessPattern pattern) {
        if (!(flops >= 0) || !(modelFlops >= 0) || !(bytesRead >= 0) || !(bytesWritten >= 0)) {
            throw negative(name, suffix);
        }
        int i = row(name, suffix, operationClass, kernel, precision, placement, pattern, false, count);
        if (i >= 0) {
            double[] n = numbers;
            int at = i * NUMBERS;
            n[at + FLOPS] = flops;
            n[at + MODEL_FLOPS] = modelFlops;
            n[at + BYTES_READ] = bytesRead;
            n[at + BYTES_WRITTEN] = bytesWritten;
        }
        return i;
    }

    /**
     * A new row's kinds and count (its other numbers are the caller's to write: a row's link numbers are
     * read only for a transfer, its row work only when it has some), or -1 when it is repeated zero times.
     */
    private int row(String name, String suffix, OperationClass operationClass, Kernel kernel, Precision precision,
                    Placement placement, AccessPattern pattern, boolean overlapsBackward, double count) {
        if (operationClass == null || kernel == null || placement == null || (name == null && keepsNames)) {
            throw incomplete();
        }
        if (!(count > 0)) {
            // Zero, negative or NaN: only zero is kept, and only by a list that builds a single Operation.
            if (!(count == 0)) {
                throw negative(name, suffix);
            }
            if (!keepsEmptyRows) {
                return -1;
            }
        }
        int i = size;
        if (i == codes.length) {
            if (this == NONE) {
                throw new IllegalStateException("OperationList.NONE holds no rows");
            }
            grow(i + 1);
        }
        int cls = operationClass.ordinal();
        if (cls < lastClass) {
            sorted = false;
        }
        lastClass = cls;
        if (keepsNames) {
            this.name[i] = name;
            this.suffix[i] = suffix;
        }
        codes[i] = code(cls, kernel.ordinal(), (precision == null ? Precision.FP32 : precision).ordinal(),
                placement.ordinal(), (pattern == null ? AccessPattern.COPY : pattern).ordinal(), overlapsBackward);
        numbers[i * NUMBERS + COUNT] = count;
        size = i + 1;
        unmaterialize();
        return i;
    }

    /**
     * Forgets the rows built as records: only a list read by {@link #operations()} has them, so a sweep's list,
     * which is never read that way, pays a load and no reference store per row.
     */
    private void unmaterialize() {
        if (materialized != null) {
            materialized = null;
        }
    }

    private static BadInputException incomplete() {
        return new BadInputException("operation needs a name, class, kernel and placement");
    }

    private static BadInputException negative(String name, String suffix) {
        return new BadInputException("operation " + (suffix == null ? name : name + suffix)
                + " must have finite non-negative sizes");
    }

    /** Adds a product shape to row {@code row} (ignored for -1), with {@link OperationShape}'s rules. */
    public void shape(int row, double batch, double m, double n, double k, ProductShape.Layout layout) {
        if (row < 0) {
            return;
        }
        if (!(batch >= 1) || !(m >= 1) || !(n >= 1) || !(k >= 1) || Double.isInfinite(batch * m * n * k)
                || layout == null) {
            throw new BadInputException("a product shape needs batch, m, n, k >= 1 and a layout: batch=" + batch
                    + ", m=" + m + ", n=" + n + ", k=" + k + ", layout=" + layout);
        }
        int s = shapesOf(codes[row]);
        if (s == MAX_SHAPES) {
            throw new IllegalStateException("an operation carries at most " + MAX_SHAPES + " product shapes");
        }
        int at = (row * MAX_SHAPES + s) * SHAPE_FIELDS;
        shapes[at] = batch;
        shapes[at + 1] = m;
        shapes[at + 2] = n;
        shapes[at + 3] = k;
        shapes[at + 4] = layout.ordinal();
        codes[row] = (codes[row] & ~(0x7 << 16)) | (s + 1) << 16;
        unmaterialize();
    }

    /** Says what row {@code row} does per repetition (ignored for -1), with {@link Operation.RowWork}'s rules. */
    public void rowWork(int row, RowOperation operation, double elements, double length) {
        if (row < 0) {
            return;
        }
        if (operation == null || !(elements >= 0) || Double.isInfinite(elements) || !(length >= 1)) {
            throw new BadInputException("row work needs an operation, elements >= 0 and a row length >= 1: "
                    + "operation=" + operation + ", elements=" + elements + ", rowLength=" + length);
        }
        codes[row] = (codes[row] & ~(0x1F << 19)) | (operation.ordinal() + 1) << 19;
        numbers[row * NUMBERS + ROW_ELEMENTS] = elements;
        numbers[row * NUMBERS + ROW_LENGTH] = length;
        unmaterialize();
    }

    /** {@link #gemm}'s figures as a row, with its one product shape. */
    public int addGemm(String name, String suffix, OperationClass cls, Kernel kernel, Precision precision,
                       double count, double rows, double inner, double columns, double activationBytes,
                       double weightBytesRead, double weightBytesWritten) {
        double f = 2 * rows * inner * columns;
        int row = add(name, suffix, cls, kernel, precision, Placement.DEVICE, count, f, f,
                rows * inner * activationBytes + weightBytesRead, rows * columns * activationBytes + weightBytesWritten,
                AccessPattern.READ);
        shape(row, 1, rows, columns, inner, ProductShape.Layout.NN);
        return row;
    }

    /** {@link #gemmBytes}'s figures as a row; the caller adds its shapes with {@link #shape}. */
    public int addGemmBytes(String name, String suffix, OperationClass cls, Precision precision, double count,
                            double flops, double bytesRead, double bytesWritten) {
        return add(name, suffix, cls, Kernel.GEMM, precision, Placement.DEVICE, count, flops, flops, bytesRead,
                bytesWritten, AccessPattern.READ);
    }

    /** {@link #elementwise}'s figures as a row. */
    public int addElementwise(String name, String suffix, OperationClass cls, AccessPattern pattern, double count,
                              double flops, double bytesRead, double bytesWritten) {
        return add(name, suffix, cls, Kernel.ELEMENTWISE, Precision.FP32, Placement.DEVICE, count, flops, 0, bytesRead,
                bytesWritten, pattern);
    }

    /** {@link #transfer}'s figures as a row. */
    public int addTransfer(String name, OperationClass cls, Placement placement, double count, double bytes,
                           double messages, boolean overlapsBackward) {
        if (!(bytes >= 0) || !(messages >= 0)) {
            throw negative(name, null);
        }
        int i = row(name, null, cls, Kernel.TRANSFER, Precision.FP32, placement, AccessPattern.COPY, overlapsBackward,
                count);
        if (i >= 0) {
            double[] n = numbers;
            int at = i * NUMBERS;
            n[at + FLOPS] = 0;
            n[at + MODEL_FLOPS] = 0;
            n[at + BYTES_READ] = 0;
            n[at + BYTES_WRITTEN] = 0;
            n[at + LINK_BYTES] = bytes;
            n[at + LINK_MESSAGES] = messages;
        }
        return i;
    }

    /**
     * Row {@code row} of this list appended to {@code into} as class {@code cls} under a new name: what a
     * recompute repeats of the forward pass (it counts no model FLOPs) or a backward pass of the same work.
     *
     * @return the new row's index, or -1 for row -1
     */
    public int copyTo(int row, OperationList into, OperationClass cls, String newName, String newSuffix) {
        if (row < 0) {
            return -1;
        }
        int c = codes[row];
        int from = row * NUMBERS;
        int i = into.row(newName, newSuffix, cls, KERNELS[kernelOf(c)], PRECISIONS[precisionOf(c)],
                PLACEMENTS[placementOf(c)], PATTERNS[patternOf(c)], overlapsOf(c), numbers[from + COUNT]);
        // Read after the row is made: when into is this list, it may have grown. (Loops, not arraycopy: a
        // handful of elements.)
        double[] source = numbers;
        double[] target = into.numbers;
        int to = i * NUMBERS;
        for (int k = 0; k < NUMBERS; k++) {
            target[to + k] = source[from + k];
        }
        if (cls == OperationClass.RECOMPUTE) {
            target[to + MODEL_FLOPS] = 0;
        }
        double[] sourceShapes = shapes;
        double[] targetShapes = into.shapes;
        int shapeFrom = row * MAX_SHAPES * SHAPE_FIELDS;
        int shapeTo = i * MAX_SHAPES * SHAPE_FIELDS;
        for (int k = 0, n = shapesOf(c) * SHAPE_FIELDS; k < n; k++) {
            targetShapes[shapeTo + k] = sourceShapes[shapeFrom + k];
        }
        into.codes[i] = (into.codes[i] & ~(0x7 << 16 | 0x1F << 19)) | (c & (0x7 << 16 | 0x1F << 19));
        return i;
    }

    /**
     * Says that forward row {@code row} (ignored for -1) runs again in the backward pass, as activation
     * checkpointing recomputes it: a recompute row of the same work under the same name, counting no model
     * FLOPs. The roofline sums it without the row being written; reading the list writes it (after every
     * backward row, in the order the rows were marked).
     */
    public void recomputed(int row) {
        if (row < 0) {
            return;
        }
        codes[row] |= RECOMPUTED;
        marked = true;
        materialized = null;
    }

    /** Row {@code row} repeated into {@code into} under its own name as class {@code cls}. */
    public int copyTo(int row, OperationList into, OperationClass cls) {
        return row < 0 ? -1 : copyTo(row, into, cls, name[row], suffix[row]);
    }

    /** Appends one operation as a row (dropped when it is repeated zero times, as every row is). */
    public void add(Operation op) {
        int row;
        if (op.kernel() == Kernel.TRANSFER) {
            row = addTransfer(op.name(), op.operationClass(), op.placement(), op.count(), op.linkBytes(),
                    op.linkMessages(), op.overlapsBackward());
        } else {
            // A record's link numbers count only for a transfer (as the roofline reads them).
            row = add(op.name(), null, op.operationClass(), op.kernel(), op.precision(), op.placement(), op.count(),
                    op.flops(), op.modelFlops(), op.bytesRead(), op.bytesWritten(), op.accessPattern());
        }
        for (OperationShape s : op.shapes()) {
            shape(row, s.batch(), s.m(), s.n(), s.k(), s.layout());
        }
        Operation.RowWork work = op.rowWork();
        if (work != null) {
            rowWork(row, work.operation(), work.elements(), work.rowLength());
        }
    }

    public void addAll(List<Operation> more) {
        for (Operation op : more) {
            add(op);
        }
    }

    /**
     * Writes the recompute rows of the {@link #recomputed} rows, then puts the rows in class order, keeping
     * the order within each class: a pass written into one list interleaves forward, backward and recompute
     * rows; read, they come as forward, then backward, then recompute, then the rest, as separate lists would
     * give them. Sums per class do not change (each class's rows keep their order). Every reader by row calls
     * it; the roofline's sums do not need it.
     */
    public void normalize() {
        if (marked) {
            marked = false;
            for (int r = 0, n = size; r < n; r++) {
                if (recomputedOf(codes[r])) {
                    codes[r] &= ~RECOMPUTED;
                    copyTo(r, this, OperationClass.RECOMPUTE);
                }
            }
        }
        if (sorted) {
            return;
        }
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(classOf(codes[a]), classOf(codes[b])));
        String[] names = new String[name.length];
        String[] suffixes = new String[name.length];
        int[] newCodes = new int[codes.length];
        double[] newNumbers = new double[numbers.length];
        double[] newShapes = new double[shapes.length];
        for (int to = 0; to < size; to++) {
            int from = order[to];
            names[to] = name[from];
            suffixes[to] = suffix[from];
            newCodes[to] = codes[from];
            System.arraycopy(numbers, from * NUMBERS, newNumbers, to * NUMBERS, NUMBERS);
            System.arraycopy(shapes, from * MAX_SHAPES * SHAPE_FIELDS, newShapes, to * MAX_SHAPES * SHAPE_FIELDS,
                    MAX_SHAPES * SHAPE_FIELDS);
        }
        name = names;
        suffix = suffixes;
        codes = newCodes;
        numbers = newNumbers;
        shapes = newShapes;
        sorted = true;
        lastClass = size == 0 ? 0 : classOf(codes[size - 1]);
        materialized = null;
    }

    // ---- reading rows ----

    public String name(int row) {
        if (!keepsNames) {
            throw new IllegalStateException("a sweep's operation list keeps no names: plan into a list of your own "
                    + "to read its operations");
        }
        normalize();
        return suffix[row] == null ? name[row] : name[row] + suffix[row];
    }

    /** Row {@code row} as an {@link Operation}. */
    public Operation operation(int row) {
        if (row < 0 || row >= size) {
            throw new IndexOutOfBoundsException("row " + row + " of " + size);
        }
        normalize();
        int c = codes[row];
        List<OperationShape> rowShapes;
        int count = shapesOf(c);
        if (count == 0) {
            rowShapes = List.of();
        } else {
            OperationShape[] list = new OperationShape[count];
            for (int s = 0; s < count; s++) {
                int at = (row * MAX_SHAPES + s) * SHAPE_FIELDS;
                list[s] = new OperationShape(shapes[at], shapes[at + 1], shapes[at + 2], shapes[at + 3],
                        LAYOUTS[(int) shapes[at + 4]]);
            }
            rowShapes = List.of(list);
        }
        int at = row * NUMBERS;
        double[] n = numbers;
        Operation.RowWork work = rowOperationOf(c) < 0 ? null
                : new Operation.RowWork(ROW_OPERATIONS[rowOperationOf(c)], n[at + ROW_ELEMENTS], n[at + ROW_LENGTH]);
        // Only a transfer's link numbers are written.
        boolean transfer = kernelOf(c) == Kernel.TRANSFER.ordinal();
        return new Operation(name(row), CLASSES[classOf(c)], KERNELS[kernelOf(c)], PRECISIONS[precisionOf(c)],
                PLACEMENTS[placementOf(c)], n[at + COUNT], n[at + FLOPS], n[at + MODEL_FLOPS], n[at + BYTES_READ],
                n[at + BYTES_WRITTEN], PATTERNS[patternOf(c)], transfer ? n[at + LINK_BYTES] : 0,
                transfer ? n[at + LINK_MESSAGES] : 0, overlapsOf(c), rowShapes, work);
    }

    /** Every row as an {@link Operation}, in order (built once, until the list changes). */
    public List<Operation> operations() {
        if (size == 0) {
            return List.of();
        }
        normalize();
        if (materialized == null) {
            List<Operation> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(operation(i));
            }
            materialized = Collections.unmodifiableList(list);
        }
        return materialized;
    }

    // ---- single operations ----

    /**
     * A GEMM: {@code rows x inner} activations times an {@code inner x columns} weight, 2 x rows x
     * inner x columns FLOPs, every operand read once and the output written once.
     *
     * @param weightBytesRead bytes of weights read (all matrices touched, at their storage precision)
     */
    public static Operation gemm(String name, OperationClass cls, Kernel kernel, Precision precision, double count,
                                 double rows, double inner, double columns, double activationBytes,
                                 double weightBytesRead, double weightBytesWritten) {
        OperationList one = new OperationList(1, true);
        return one.operation(one.addGemm(name, null, cls, kernel, precision, count, rows, inner, columns,
                activationBytes, weightBytesRead, weightBytesWritten));
    }

    /**
     * A GEMM given by its operand bytes directly (input gradients, weight gradients, batched attention GEMMs),
     * with the shapes of the products it runs (their FLOPs need not add up to {@code flops}: a batch of them
     * shares it in proportion).
     */
    public static Operation gemmBytes(String name, OperationClass cls, Precision precision, double count, double flops,
                                      double bytesRead, double bytesWritten, OperationShape... shapes) {
        return new Operation(name, cls, Kernel.GEMM, precision, Placement.DEVICE, count, flops, flops, bytesRead,
                bytesWritten, AccessPattern.READ, 0, 0, false, List.of(shapes));
    }

    /** The input gradient {@code dX = dY·Wᵀ} of a {@code rows × inner} by {@code inner × columns} layer. */
    public static OperationShape inputGradient(double rows, double inner, double columns) {
        return new OperationShape(rows, inner, columns, ProductShape.Layout.NT);
    }

    /** The weight gradient {@code dW = Xᵀ·dY} of a {@code rows × inner} by {@code inner × columns} layer. */
    public static OperationShape weightGradient(double rows, double inner, double columns) {
        return new OperationShape(inner, columns, rows, ProductShape.Layout.TN);
    }

    /** Row {@code row} gets {@link #inputGradient}'s shape. */
    public void inputGradientShape(int row, double rows, double inner, double columns) {
        shape(row, 1, rows, inner, columns, ProductShape.Layout.NT);
    }

    /** Row {@code row} gets {@link #weightGradient}'s shape. */
    public void weightGradientShape(int row, double rows, double inner, double columns) {
        shape(row, 1, inner, columns, rows, ProductShape.Layout.TN);
    }

    public static Operation elementwise(String name, OperationClass cls, AccessPattern pattern, double count,
                                        double flops, double bytesRead, double bytesWritten) {
        return new Operation(name, cls, Kernel.ELEMENTWISE, Precision.FP32, Placement.DEVICE, count, flops, 0,
                bytesRead, bytesWritten, pattern, 0, 0, false);
    }

    public static Operation transfer(String name, OperationClass cls, Placement placement, double count, double bytes,
                                     double messages, boolean overlapsBackward) {
        return new Operation(name, cls, Kernel.TRANSFER, Precision.FP32, placement, count, 0, 0, 0, 0,
                AccessPattern.COPY, bytes, messages, overlapsBackward);
    }
}
