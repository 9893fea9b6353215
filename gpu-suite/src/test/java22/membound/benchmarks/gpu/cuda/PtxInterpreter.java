package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the suite's PTX on the host, for the tests: a reader and interpreter of exactly the PTX subset the kernels
 * are written in (the integer, f32, f64 and bf16x2 instructions, global and shared loads and stores, reductions,
 * {@code bar.sync}, predicated branches), with PTX's semantics as the ISA manual defines them. Every thread of a
 * block runs to the next barrier before any passes it, blocks run one after another (the kernels share nothing
 * between blocks but atomics), and whatever a GPU would fault on fails here, naming the kernel and the line: a global
 * access outside the device allocations (or, on a device without access to pageable host memory, anywhere else) or
 * not aligned to its width, a register read before it is written, a thread that exits while others wait at a
 * barrier, an instruction this reader does not know.
 *
 * <p>Device memory is native memory, so a kernel can also be given memory the host allocated, as on a device that
 * reaches pageable memory. Fresh allocations read as NaN bytes, as uncleared memory would read as anything.
 *
 * <p>It is not a GPU and measures nothing: it shows what the kernels compute, before a GPU is lent to run them.
 */
final class PtxInterpreter implements AutoCloseable {

    private static final int STEP_LIMIT = 100_000_000;

    // ---- the program

    /** An operand, read once from the text: a register (by index), a special register, an immediate or a name. */
    private record Operand(int kind, int register, long value, String text, List<Operand> vector) {
        static final int REGISTER = 0;
        static final int TID = 1;
        static final int NTID = 2;
        static final int CTAID = 3;
        static final int NCTAID = 4;
        static final int IMMEDIATE = 5;
        static final int SHARED = 6;
        static final int ADDRESS = 7;
        static final int VECTOR = 8;
        static final int NAME = 9;
    }

    /** One instruction, read once: {@code width} is a load's or store's element width, {@code shared} its space. */
    record Instruction(Operand guard, boolean negated, String opcode, Op op, int width, boolean shared,
                       List<Operand> operands, String text, int line) {
    }

    /** The instructions this interpreter knows, by their PTX names with the dots as underscores. */
    private enum Op {
        RET, BAR_SYNC, BRA, LD_PARAM_U64, LD_PARAM_F64, LD_PARAM_F32, CVTA_TO_GLOBAL_U64, MOV_U64, MOV_F64, MOV_U32, MOV_B32, MOV_F32, ADD_U64, ADD_U32, MUL_WIDE_U32, SHL_B64, SHR_U64, SHL_B32, SHR_U32, AND_B32, CVT_U64_U32, CVT_U32_U16, SELP_U32, SETP_LT_U64, SETP_GE_U64, SETP_GE_U32, SETP_NE_U32, SETP_EQ_U32, SETP_NEU_F32, SETP_NEU_F64, ADD_RN_F32, MUL_RN_F32, FMA_RN_F32, ADD_RN_F64, MUL_RN_F64, FMA_RN_F64, CVT_F64_F32, CVT_RN_BF16X2_F32, LD_GLOBAL_F32, LD_GLOBAL_F64, LD_GLOBAL_B16, LD_GLOBAL_V4_F32, LD_GLOBAL_V4_B32, LD_GLOBAL_V2_F64, LD_SHARED_F64, ST_GLOBAL_V4_F32, ST_GLOBAL_V4_B32, ST_GLOBAL_V2_F64, ST_SHARED_F64, RED_GLOBAL_ADD_F64, RED_GLOBAL_ADD_U32, UNKNOWN;

        static Op of(String opcode) {
            try {
                return valueOf(opcode.replace('.', '_').toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return UNKNOWN;
            }
        }
    }

    /** An entry: its parameters' names and types ({@code u64}, {@code f32}, ...), code, labels and shared variables. */
    record Entry(String name, List<String> parameters, List<String> types, List<Instruction> code,
                 Map<String, Integer> labels, int registers, int sharedBytes) {
    }

    private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+(\\w+)\\s*\\(([^)]*)\\)");
    private static final Pattern SHARED = Pattern.compile(
            "\\.shared\\s+(?:\\.align\\s+(\\d+)\\s+)?\\.(\\w+)\\s+(\\w+)\\[(\\d+)\\]\\s*;");
    private static final Pattern LABEL = Pattern.compile("^(\\w+):\\s*(.*)$");
    private static final Pattern PARAMETER = Pattern.compile("\\.param\\s+\\.(\\w+)\\s+(\\w+)");

    /** The entries of a PTX module. */
    static Map<String, Entry> parse(String ptx) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        String[] lines = ptx.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher header = ENTRY.matcher(lines[i]);
            if (!header.find()) {
                continue;
            }
            List<String> parameters = new ArrayList<>();
            List<String> types = new ArrayList<>();
            Matcher declared = PARAMETER.matcher(header.group(2));
            while (declared.find()) {
                types.add(declared.group(1));
                parameters.add(declared.group(2));
            }
            Map<String, Integer> labels = new HashMap<>();
            Map<String, Integer> shared = new HashMap<>();
            Map<String, Integer> registers = new HashMap<>();
            List<String[]> texts = new ArrayList<>();
            int sharedBytes = 0;
            int j = i + 1;
            for (; j < lines.length && !lines[j].startsWith("}"); j++) {
                String line = lines[j].replaceFirst("//.*", "").strip();
                Matcher label = LABEL.matcher(line);
                if (label.find()) {
                    labels.put(label.group(1), texts.size());
                    line = label.group(2);
                }
                if (line.isEmpty() || line.equals("{") || line.startsWith(".reg")) {
                    continue;
                }
                Matcher variable = SHARED.matcher(line);
                if (variable.find()) {
                    int align = variable.group(1) == null ? 1 : Integer.parseInt(variable.group(1));
                    sharedBytes = (sharedBytes + align - 1) / align * align;
                    shared.put(variable.group(3), sharedBytes);
                    sharedBytes += width(variable.group(2)) * Integer.parseInt(variable.group(4));
                    continue;
                }
                if (!line.endsWith(";")) {
                    throw new IllegalStateException("line " + (j + 1) + ": not one instruction: " + line);
                }
                texts.add(new String[] {line.substring(0, line.length() - 1).strip(), String.valueOf(j + 1)});
            }
            List<Instruction> code = new ArrayList<>();
            for (String[] text : texts) {
                code.add(instruction(text[0], Integer.parseInt(text[1]), registers, shared));
            }
            entries.put(header.group(1), new Entry(header.group(1), parameters, types, code, labels, registers.size(),
                    sharedBytes));
            i = j;
        }
        return entries;
    }

    private static Instruction instruction(String text, int line, Map<String, Integer> registers,
                                           Map<String, Integer> shared) {
        String whole = text;
        Operand guard = null;
        boolean negated = false;
        if (text.startsWith("@")) {
            int space = text.indexOf(' ');
            String predicate = text.substring(1, space);
            negated = predicate.startsWith("!");
            guard = operand(negated ? predicate.substring(1) : predicate, registers, shared);
            text = text.substring(space + 1).strip();
        }
        int space = text.indexOf(' ');
        String opcode = space < 0 ? text : text.substring(0, space);
        List<Operand> operands = new ArrayList<>();
        if (space >= 0) {
            int depth = 0;
            StringBuilder current = new StringBuilder();
            for (char ch : text.substring(space + 1).toCharArray()) {
                if (ch == '{' || ch == '[') {
                    depth++;
                } else if (ch == '}' || ch == ']') {
                    depth--;
                }
                if (ch == ',' && depth == 0) {
                    operands.add(operand(current.toString().strip(), registers, shared));
                    current.setLength(0);
                } else {
                    current.append(ch);
                }
            }
            operands.add(operand(current.toString().strip(), registers, shared));
        }
        boolean memory = opcode.startsWith("ld.") && !opcode.startsWith("ld.param") || opcode.startsWith("st.");
        return new Instruction(guard, negated, opcode, Op.of(opcode),
                memory ? width(opcode.substring(opcode.lastIndexOf('.') + 1)) : 0,
                opcode.startsWith("ld.shared") || opcode.startsWith("st.shared"), operands, whole, line);
    }

    private static Operand operand(String text, Map<String, Integer> registers, Map<String, Integer> shared) {
        if (text.startsWith("[")) {
            return new Operand(Operand.ADDRESS, 0, 0, text,
                    List.of(operand(text.substring(1, text.length() - 1).strip(), registers, shared)));
        }
        if (text.startsWith("{")) {
            List<Operand> vector = new ArrayList<>();
            for (String element : text.substring(1, text.length() - 1).split(",")) {
                vector.add(operand(element.strip(), registers, shared));
            }
            return new Operand(Operand.VECTOR, 0, 0, text, vector);
        }
        switch (text) {
            case "%tid.x" -> {
                return new Operand(Operand.TID, 0, 0, text, null);
            }
            case "%ntid.x" -> {
                return new Operand(Operand.NTID, 0, 0, text, null);
            }
            case "%ctaid.x" -> {
                return new Operand(Operand.CTAID, 0, 0, text, null);
            }
            case "%nctaid.x" -> {
                return new Operand(Operand.NCTAID, 0, 0, text, null);
            }
            default -> {
            }
        }
        if (text.startsWith("%")) {
            return new Operand(Operand.REGISTER, registers.computeIfAbsent(text, r -> registers.size()), 0, text, null);
        }
        if (shared.containsKey(text)) {
            return new Operand(Operand.SHARED, 0, shared.get(text), text, null);
        }
        Long immediate = null;
        if (text.startsWith("0f")) {
            immediate = Long.parseLong(text.substring(2), 16);
        } else if (text.startsWith("0d")) {
            immediate = Long.parseUnsignedLong(text.substring(2), 16);
        } else if (text.startsWith("0x")) {
            immediate = Long.parseLong(text.substring(2), 16);
        } else if (text.matches("-?\\d+")) {
            immediate = Long.parseLong(text);
        }
        return immediate != null ? new Operand(Operand.IMMEDIATE, 0, immediate, text, null)
                : new Operand(Operand.NAME, 0, 0, text, null);
    }

    private static int width(String type) {
        return switch (type) {
            case "f64", "u64", "b64", "s64" -> 8;
            case "f32", "u32", "b32", "s32" -> 4;
            case "b16", "u16" -> 2;
            default -> throw new IllegalStateException("no width for ." + type);
        };
    }

    // ---- device memory

    /** All of memory, addressed by absolute address: every access is checked against the allocations first. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private final Arena arena = Arena.ofShared();
    private final TreeMap<Long, Long> allocations = new TreeMap<>();
    /** The allocation the last access fell in, [low, high): most accesses fall in the one before them. */
    private long low;
    private long high;
    private final long capacity;
    private final boolean pageableHostMemory;
    private long allocated;

    /**
     * @param capacity           the device memory's size
     * @param pageableHostMemory whether kernels may touch memory that is not a device allocation (host memory the
     *                           device reaches, as GB10 and GH200 do); without it such an access faults
     */
    PtxInterpreter(long capacity, boolean pageableHostMemory) {
        this.capacity = capacity;
        this.pageableHostMemory = pageableHostMemory;
    }

    /** A device allocation of {@code bytes}, 256-byte aligned as cuMemAlloc's are, reading as NaN bytes. */
    synchronized long allocate(long bytes) {
        if (allocated + bytes > capacity) {
            throw new IllegalStateException("the interpreter's " + capacity + " bytes of device memory are full");
        }
        MemorySegment memory = arena.allocate(Math.max(1, bytes), 256);
        memory.fill((byte) 0xFF);
        allocations.put(memory.address(), bytes);
        allocated += bytes;
        return memory.address();
    }

    synchronized void free(long pointer) {
        low = 0;
        high = 0;
        Long bytes = allocations.remove(pointer);
        if (bytes == null) {
            throw new IllegalStateException("free of 0x" + Long.toHexString(pointer) + ", which is not an allocation");
        }
        allocated -= bytes;
    }

    long free() {
        return capacity - allocated;
    }

    /**
     * {@code width} bytes of memory at {@code address} as a kernel or copy reaches it.
     *
     * @throws IllegalStateException where a GPU would fault
     */
    MemorySegment at(long address, long width, String what) {
        check(address, width, what);
        return MemorySegment.ofAddress(address).reinterpret(width);
    }

    /** Fails where a GPU would fault: outside the allocations (unless host memory is reachable). */
    private void check(long address, long width, String what) {
        if (address >= low && address + width <= high) {
            return;
        }
        synchronized (this) {
            Map.Entry<Long, Long> allocation = allocations.floorEntry(address);
            if (allocation != null && address + width <= allocation.getKey() + allocation.getValue()) {
                low = allocation.getKey();
                high = allocation.getKey() + allocation.getValue();
                return;
            }
        }
        if (!pageableHostMemory) {
            throw new IllegalStateException(what + ": address 0x" + Long.toHexString(address) + " (" + width
                    + " bytes) is outside the allocations (a GPU would fault: CUDA_ERROR_ILLEGAL_ADDRESS)");
        }
    }

    @Override
    public void close() {
        arena.close();
    }

    // ---- running

    private static final class Thread {
        final int tid;
        final long[] registers;
        final boolean[] written;
        int pc;
        boolean done;

        Thread(int tid, int registers) {
            this.tid = tid;
            this.registers = new long[registers];
            this.written = new boolean[registers];
        }
    }

    private record Block(int ctaid, int ntid, int nctaid, ByteBuffer shared) {
    }

    private enum Flow { NEXT, BARRIER, EXIT }

    /**
     * Launches {@code entry} on {@code grid} blocks of {@code threads} with a parameter block as
     * {@code cuLaunchKernel} takes it ({@code void*[]}, one pointer per parameter to its value), each value read as
     * wide as the entry declares it.
     */
    void launch(Entry entry, int grid, int threads, MemorySegment parameterBlock) {
        Map<String, Long> values = new HashMap<>();
        MemorySegment pointers = parameterBlock.reinterpret(8L * entry.parameters().size());
        for (int i = 0; i < entry.parameters().size(); i++) {
            MemorySegment value = pointers.getAtIndex(ValueLayout.ADDRESS, i).reinterpret(8);
            values.put(entry.parameters().get(i), width(entry.types().get(i)) == 8 ? value.get(JAVA_LONG, 0)
                    : value.get(JAVA_INT, 0) & 0xFFFF_FFFFL);
        }
        for (int ctaid = 0; ctaid < grid; ctaid++) {
            Block block = new Block(ctaid, threads, grid,
                    ByteBuffer.allocate(Math.max(8, entry.sharedBytes())).order(ByteOrder.LITTLE_ENDIAN));
            Arrays.fill(block.shared().array(), (byte) 0xFF);
            Thread[] team = new Thread[threads];
            for (int tid = 0; tid < threads; tid++) {
                team[tid] = new Thread(tid, entry.registers());
            }
            while (true) {
                int exited = 0;
                for (Thread thread : team) {
                    if (!thread.done) {
                        run(entry, block, thread, values);
                    }
                    exited += thread.done ? 1 : 0;
                }
                if (exited == threads) {
                    break;
                }
                if (exited > 0) {
                    throw new IllegalStateException(entry.name() + ": " + exited + " threads of block " + ctaid
                            + " exited while the others wait at a barrier");
                }
            }
        }
    }

    private void run(Entry entry, Block block, Thread thread, Map<String, Long> parameters) {
        int steps = 0;
        List<Instruction> code = entry.code();
        while (true) {
            if (thread.pc >= code.size()) {
                throw new IllegalStateException(entry.name() + ": ran off the end without ret");
            }
            if (++steps > STEP_LIMIT) {
                throw new IllegalStateException(entry.name() + ": thread " + thread.tid + " of block " + block.ctaid()
                        + " does not end");
            }
            Instruction instruction = code.get(thread.pc++);
            try {
                if (instruction.guard() != null
                        && (read(block, thread, instruction.guard()) != 0) == instruction.negated()) {
                    continue;
                }
                Flow flow = execute(entry, block, thread, instruction, parameters);
                if (flow == Flow.BARRIER) {
                    return;
                }
                if (flow == Flow.EXIT) {
                    thread.done = true;
                    return;
                }
            } catch (IllegalStateException e) {
                throw new IllegalStateException(entry.name() + " line " + instruction.line() + " ("
                        + instruction.text() + "), thread " + thread.tid + " of block " + block.ctaid() + ": "
                        + e.getMessage(), e);
            }
        }
    }

    private Flow execute(Entry entry, Block block, Thread thread, Instruction instruction,
                         Map<String, Long> parameters) {
        List<Operand> o = instruction.operands();
        String op = instruction.opcode();
        switch (instruction.op()) {
            case RET -> {
                return Flow.EXIT;
            }
            case BAR_SYNC -> {
                return Flow.BARRIER;
            }
            case BRA -> {
                Integer target = entry.labels().get(o.get(0).text());
                if (target == null) {
                    throw new IllegalStateException("no label " + o.get(0).text());
                }
                thread.pc = target;
                return Flow.NEXT;
            }
            default -> {
            }
        }
        Operand d = o.get(0);
        switch (instruction.op()) {
            case LD_PARAM_U64, LD_PARAM_F64, LD_PARAM_F32 -> {
                String name = o.get(1).vector().get(0).text();
                Long value = parameters.get(name);
                if (value == null) {
                    throw new IllegalStateException("no parameter " + name);
                }
                write(thread, d, op.endsWith("f32") ? value & 0xFFFF_FFFFL : value);
            }
            case CVTA_TO_GLOBAL_U64, MOV_U64, MOV_F64 -> write(thread, d, read(block, thread, o.get(1)));
            case MOV_U32, MOV_B32, MOV_F32 -> write(thread, d, read(block, thread, o.get(1)) & 0xFFFF_FFFFL);
            case ADD_U64 -> write(thread, d, a(block, thread, o) + b(block, thread, o));
            case ADD_U32 -> write(thread, d, (a(block, thread, o) + b(block, thread, o)) & 0xFFFF_FFFFL);
            case MUL_WIDE_U32 -> write(thread, d, (a(block, thread, o) & 0xFFFF_FFFFL)
                    * (b(block, thread, o) & 0xFFFF_FFFFL));
            case SHL_B64 -> write(thread, d, a(block, thread, o) << b(block, thread, o));
            case SHR_U64 -> write(thread, d, a(block, thread, o) >>> b(block, thread, o));
            case SHL_B32 -> write(thread, d, (a(block, thread, o) << b(block, thread, o)) & 0xFFFF_FFFFL);
            case SHR_U32 -> write(thread, d, (a(block, thread, o) & 0xFFFF_FFFFL) >>> b(block, thread, o));
            case AND_B32 -> write(thread, d, a(block, thread, o) & b(block, thread, o) & 0xFFFF_FFFFL);
            case CVT_U64_U32 -> write(thread, d, a(block, thread, o) & 0xFFFF_FFFFL);
            case CVT_U32_U16 -> write(thread, d, a(block, thread, o) & 0xFFFFL);
            case SELP_U32 -> write(thread, d, (read(block, thread, o.get(3)) != 0 ? a(block, thread, o)
                    : b(block, thread, o)) & 0xFFFF_FFFFL);
            case SETP_LT_U64 -> write(thread, d, Long.compareUnsigned(a(block, thread, o), b(block, thread, o)) < 0
                    ? 1 : 0);
            case SETP_GE_U64 -> write(thread, d, Long.compareUnsigned(a(block, thread, o), b(block, thread, o)) >= 0
                    ? 1 : 0);
            case SETP_GE_U32 -> write(thread, d, (a(block, thread, o) & 0xFFFF_FFFFL)
                    >= (b(block, thread, o) & 0xFFFF_FFFFL) ? 1 : 0);
            case SETP_NE_U32 -> write(thread, d, (a(block, thread, o) & 0xFFFF_FFFFL)
                    != (b(block, thread, o) & 0xFFFF_FFFFL) ? 1 : 0);
            case SETP_EQ_U32 -> write(thread, d, (a(block, thread, o) & 0xFFFF_FFFFL)
                    == (b(block, thread, o) & 0xFFFF_FFFFL) ? 1 : 0);
            case SETP_NEU_F32 -> {
                float x = f32(a(block, thread, o));
                float y = f32(b(block, thread, o));
                write(thread, d, Float.isNaN(x) || Float.isNaN(y) || x != y ? 1 : 0);
            }
            case SETP_NEU_F64 -> {
                double x = f64(a(block, thread, o));
                double y = f64(b(block, thread, o));
                write(thread, d, Double.isNaN(x) || Double.isNaN(y) || x != y ? 1 : 0);
            }
            case ADD_RN_F32 -> write(thread, d, bits(f32(a(block, thread, o)) + f32(b(block, thread, o))));
            case MUL_RN_F32 -> write(thread, d, bits(f32(a(block, thread, o)) * f32(b(block, thread, o))));
            case FMA_RN_F32 -> write(thread, d, bits(Math.fma(f32(a(block, thread, o)), f32(b(block, thread, o)),
                    f32(read(block, thread, o.get(3))))));
            case ADD_RN_F64 -> write(thread, d, Double.doubleToRawLongBits(f64(a(block, thread, o))
                    + f64(b(block, thread, o))));
            case MUL_RN_F64 -> write(thread, d, Double.doubleToRawLongBits(f64(a(block, thread, o))
                    * f64(b(block, thread, o))));
            case FMA_RN_F64 -> write(thread, d, Double.doubleToRawLongBits(Math.fma(f64(a(block, thread, o)),
                    f64(b(block, thread, o)), f64(read(block, thread, o.get(3))))));
            case CVT_F64_F32 -> write(thread, d, Double.doubleToRawLongBits(f32(a(block, thread, o))));
            // a's bf16 in the upper half, b's in the lower (PTX ISA, cvt: .bf16x2)
            case CVT_RN_BF16X2_F32 -> write(thread, d, (bf16(f32(a(block, thread, o))) << 16
                    | bf16(f32(b(block, thread, o)))) & 0xFFFF_FFFFL);
            case LD_GLOBAL_F32, LD_GLOBAL_F64, LD_GLOBAL_B16, LD_GLOBAL_V4_F32, LD_GLOBAL_V4_B32, LD_GLOBAL_V2_F64, LD_SHARED_F64 -> access(block, thread, instruction, true);
            case ST_GLOBAL_V4_F32, ST_GLOBAL_V4_B32, ST_GLOBAL_V2_F64, ST_SHARED_F64 -> access(block, thread,
                    instruction, false);
            case RED_GLOBAL_ADD_F64 -> {
                long at = global(read(block, thread, o.get(0).vector().get(0)), 8, op);
                ALL.set(JAVA_DOUBLE, at, ALL.get(JAVA_DOUBLE, at) + f64(read(block, thread, o.get(1))));
            }
            case RED_GLOBAL_ADD_U32 -> {
                long at = global(read(block, thread, o.get(0).vector().get(0)), 4, op);
                ALL.set(JAVA_INT, at, ALL.get(JAVA_INT, at) + (int) read(block, thread, o.get(1)));
            }
            default -> throw new IllegalStateException("the interpreter does not know " + op + ": add it with its "
                    + "PTX ISA semantics");
        }
        return Flow.NEXT;
    }

    private long a(Block block, Thread thread, List<Operand> o) {
        return read(block, thread, o.get(1));
    }

    private long b(Block block, Thread thread, List<Operand> o) {
        return read(block, thread, o.get(2));
    }

    /**
     * A global access of {@code width} bytes, checked: inside an allocation (or reachable host memory) and aligned.
     * Returns the address, for {@link #ALL}.
     */
    private long global(long address, int width, String what) {
        if (address % width != 0) {
            throw new IllegalStateException(what + ": address 0x" + Long.toHexString(address) + " is not aligned to "
                    + width + " bytes (a GPU would fault: CUDA_ERROR_MISALIGNED_ADDRESS)");
        }
        check(address, width, what);
        return address;
    }

    /** A load into, or a store from, one register or a vector of them. */
    private void access(Block block, Thread thread, Instruction instruction, boolean load) {
        List<Operand> o = instruction.operands();
        Operand data = o.get(load ? 0 : 1);
        List<Operand> elements = data.kind() == Operand.VECTOR ? data.vector() : List.of(data);
        long address = read(block, thread, o.get(load ? 1 : 0).vector().get(0));
        int width = instruction.width();
        int bytes = width * elements.size();
        boolean shared = instruction.shared();
        long global = shared ? 0 : global(address, bytes, instruction.opcode());
        int at = shared ? sharedOffset(block.shared(), address, bytes, instruction.opcode()) : 0;
        for (int i = 0; i < elements.size(); i++) {
            long position = (long) i * width;
            if (load) {
                long value = shared ? block.shared().getLong(at + (int) position) : switch (width) {
                    case 8 -> ALL.get(JAVA_LONG, global + position);
                    case 4 -> ALL.get(JAVA_INT, global + position) & 0xFFFF_FFFFL;
                    default -> ALL.get(JAVA_SHORT, global + position) & 0xFFFFL;
                };
                write(thread, elements.get(i), value);
            } else {
                long value = read(block, thread, elements.get(i));
                if (shared) {
                    block.shared().putLong(at + (int) position, value);
                } else if (width == 8) {
                    ALL.set(JAVA_LONG, global + position, value);
                } else {
                    ALL.set(JAVA_INT, global + position, (int) value);
                }
            }
        }
    }

    private static int sharedOffset(ByteBuffer shared, long address, int width, String what) {
        if (address < 0 || address + width > shared.capacity() || address % width != 0) {
            throw new IllegalStateException(what + ": shared address " + address + " is outside the block's "
                    + shared.capacity() + " bytes or not aligned to " + width);
        }
        return (int) address;
    }

    private static void write(Thread thread, Operand register, long value) {
        if (register.kind() != Operand.REGISTER) {
            throw new IllegalStateException("not a register: " + register.text());
        }
        thread.registers[register.register()] = value;
        thread.written[register.register()] = true;
    }

    /** A register, a special register, a shared variable's address or an immediate, as bits. */
    private static long read(Block block, Thread thread, Operand operand) {
        return switch (operand.kind()) {
            case Operand.REGISTER -> {
                if (!thread.written[operand.register()]) {
                    throw new IllegalStateException(operand.text() + " is read before it is written");
                }
                yield thread.registers[operand.register()];
            }
            case Operand.TID -> thread.tid;
            case Operand.NTID -> block.ntid();
            case Operand.CTAID -> block.ctaid();
            case Operand.NCTAID -> block.nctaid();
            case Operand.IMMEDIATE, Operand.SHARED -> operand.value();
            default -> throw new IllegalStateException("cannot read the operand " + operand.text());
        };
    }

    private static float f32(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static double f64(long bits) {
        return Double.longBitsToDouble(bits);
    }

    private static long bits(float value) {
        return Float.floatToRawIntBits(value) & 0xFFFF_FFFFL;
    }

    /** f32 to bf16, rounded to nearest even; a NaN stays a (quiet) NaN. */
    static long bf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) {
            return ((bits >>> 16) | 0x40) & 0xFFFF;
        }
        return ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16) & 0xFFFF;
    }
}
