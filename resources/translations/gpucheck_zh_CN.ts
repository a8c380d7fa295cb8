<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>gpucheck</name>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="142"/>
        <source>billed per started hour</source>
        <translation>按小时计费，不足一小时按一小时计</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="144"/>
        <source>billed per started minute</source>
        <translation>按分钟计费，不足一分钟按一分钟计</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="146"/>
        <source>billed per second, at least {m} min</source>
        <translation>按秒计费，最少计 {m} 分钟</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="148"/>
        <source>billed per second</source>
        <translation>按秒计费</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="149"/>
        <source>training itself takes {t}; starting the machine, setting up and downloading the model add about {s} ({rule})</source>
        <translation>训练本身只需 {t}；开机、配置环境和下载模型还要约 {s}（{rule}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="152"/>
        <source>billing terms not re-checked</source>
        <translation>计费规则未重新核实</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="170"/>
        <source>needs about {need} of disk, more than the {have} data disk included: expand it (paid) before downloading</source>
        <translation>需要约 {need} 的磁盘空间，超过随实例附带的 {have} 数据盘，下载前请先（付费）扩容</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="178"/>
        <source>this GPU has no bf16: in the snippet use fp16=True instead of bf16=True</source>
        <translation>这块显卡不支持 bf16：请把设置里的 bf16=True 改成 fp16=True</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="186"/>
        <source>needs about {ram} of RAM on the rented machine</source>
        <translation>租用的机器需要约 {ram} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="200"/>
        <source>effective batch {eff} on {n} GPUs, larger than the job's {want}: adjust the learning rate</source>
        <translation>{n} 块 GPU 上的有效批大小为 {eff}，大于这个任务的 {want}，请调整学习率</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="202"/>
        <source>effective batch {eff} on {n} GPUs (the job's: {want}): set gradient_accumulation_steps={k}</source>
        <translation>{n} 块 GPU 上的有效批大小为 {eff}（这个任务的是 {want}），请设置 gradient_accumulation_steps={k}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="230"/>
        <source>uses {h} of the {q} h free GPU allowance</source>
        <translation>占用免费 GPU 额度（共 {q} 小时）中的 {h}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="234"/>
        <source>uses about {w} weeks of the free ~{q} h/week GPU quota</source>
        <translation>大约要用掉 {w} 周的免费 GPU 额度（每周约 {q} 小时）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="236"/>
        <source>fits in one week's free GPU quota (~{q} h)</source>
        <translation>一周的额度（约 {q} 小时）就够用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="238"/>
        <source>needs {n} sessions of at most {s} h (each starts again): save checkpoints and resume</source>
        <translation>需要 {n} 次会话，每次最多 {s} 小时（每次都要重新启动），请保存检查点并断点续训</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="241"/>
        <source>longer than one {s} h session: save checkpoints and resume</source>
        <translation>超过单次会话的 {s} 小时上限：请保存检查点并断点续训</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="244"/>
        <source>spot/interruptible: can be stopped any time, save checkpoints often</source>
        <translation>竞价实例随时可能被停止，请经常保存检查点</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="248"/>
        <source>quota not re-checked, confirm on the provider's page</source>
        <translation>免费额度未重新核实，请到平台页面确认</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="249"/>
        <source>price not re-checked, confirm on the provider's page</source>
        <translation>价格未重新核实，请到服务商页面确认</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="255"/>
        <source>needs a foreign credit card; access from mainland China may be unstable</source>
        <translation>需境外信用卡，国内访问可能不稳定</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="256"/>
        <source>needs a foreign credit card; access from mainland China may be unstable; AWS China regions (Beijing, Ningxia) need a company account</source>
        <translation>需境外信用卡，国内访问可能不稳定；AWS 中国区（北京、宁夏）需要企业账号</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="258"/>
        <source>needs access to Google, which is blocked in mainland China</source>
        <translation>需要能访问 Google（国内无法直接访问）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/cloud_offers.py" line="259"/>
        <source>access from mainland China is unreliable</source>
        <translation>国内访问不稳定</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/fused_loss.py" line="74"/>
        <source>Use TRL's chunked cross-entropy loss</source>
        <translation>改用 TRL 的分块交叉熵损失</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/fused_loss.py" line="75"/>
        <source>loses nothing: the same loss and gradients, computed 256 tokens at a time, so the scores over all {vocab} tokens of the vocabulary are never kept for the whole batch; each chunk copies the output layer (about {gib} at the peak) and the step is a little slower; needs TRL 1.4 or newer (its default since TRL 1.7)</source>
        <translation>没有任何损失，训练结果完全相同，同样的损失和梯度改为每次只算 256 个 token，所以整批数据在词表全部 {vocab} 个 token 上的得分从不同时保存；每个分块会复制一份输出层（峰值约 {gib}），每步略慢；需要 TRL 1.4 或更新版本（TRL 1.7 起默认如此）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/fused_loss.py" line="80"/>
        <source>Use Liger Kernel's fused cross-entropy loss</source>
        <translation>改用 Liger Kernel 的融合交叉熵损失</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/fused_loss.py" line="81"/>
        <source>loses nothing: the same loss and gradients, computed in chunks, so the scores over all {vocab} tokens of the vocabulary are never kept for the whole batch; needs pip install liger-kernel, whose Triton kernels run on Linux, in WSL2, or on Windows with the triton-windows package</source>
        <translation>没有任何损失，训练结果完全相同，同样的损失和梯度只是改为分块计算，整个批次不再保存词表全部 {vocab} 个词元的得分；需要 pip install liger-kernel，它的 Triton 内核可在 Linux、WSL2 上运行，Windows 上要装 triton-windows 包</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="104"/>
        <source>Train in FP32, not FP16</source>
        <translation>用 FP32 训练，不用 FP16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="105"/>
        <source>costs time and memory, but FP16 gives NaN losses (and black images) on GTX 16xx cards (pytorch/pytorch#58123, bmaltais/kohya_ss#436)</source>
        <translation>更耗时间和显存，但在 GTX 16xx 显卡上 FP16 会让损失变成 NaN（图像全黑）（pytorch/pytorch#58123、bmaltais/kohya_ss#436）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="115"/>
        <source>Use FP16 mixed precision (FP32 master weights) instead of pure BF16</source>
        <translation>改用 FP16 混合精度（保留 FP32 主权重），不用纯 BF16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="116"/>
        <source>this GPU has no BF16 (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2), and pure FP16 training is not stable; the figures shown are for FP16 mixed precision, which keeps FP32 master weights and needs more memory than pure BF16</source>
        <translation>这块显卡没有 BF16（Ampere 之前的 NVIDIA、AMD RDNA 2、Apple M1/M2），而纯 FP16 训练不稳定；显示的数字是 FP16 混合精度的，它保留 FP32 主权重，比纯 BF16 需要更多显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="121"/>
        <source>Use FP16 mixed precision instead of BF16</source>
        <translation>用 FP16 混合精度代替 BF16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="122"/>
        <source>this GPU has no fast BF16 (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2); FP16 with automatic loss scaling trains the same way</source>
        <translation>这块显卡没有快速的 BF16（Ampere 之前的 NVIDIA、AMD RDNA 2、Apple M1/M2）；带自动损失缩放的 FP16 训练效果相同</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="140"/>
        <source>Use DeepSpeed's CPU AdamW instead of 8-bit AdamW</source>
        <translation>改用 DeepSpeed 的 CPU AdamW，不用 8 位 AdamW</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="141"/>
        <source>ZeRO-Offload runs the optimizer step on the CPU with 32-bit states; the 8-bit optimizer (bitsandbytes) runs on the GPU only</source>
        <translation>ZeRO-Offload 在 CPU 上以 32 位状态执行优化器步骤；8 位优化器（bitsandbytes）只能在 GPU 上运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="146"/>
        <source>Use the standard AdamW optimizer</source>
        <translation>使用标准的 AdamW 优化器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/gpu_support.py" line="147"/>
        <source>8-bit optimizers (bitsandbytes) are not available on this GPU</source>
        <translation>这块显卡不支持 8 位优化器（bitsandbytes）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="43"/>
        <source>This computer has no GPU that can train models: everything would run on the CPU, 10 to 100 times slower.</source>
        <translation>这台电脑没有能训练模型的 GPU，所有计算都只能在 CPU 上进行，耗时是 GPU 的 10 到 100 倍。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="47"/>
        <source>Use a free notebook platform with PyTorch (ModelScope) or rent a GPU by the hour (AutoDL).</source>
        <translation>可以使用预装 PyTorch 的免费 Notebook 平台（魔搭 ModelScope），或者按小时租用 GPU（AutoDL）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="49"/>
        <source>Use a free notebook platform (Google Colab, Kaggle) or rent a GPU by the hour.</source>
        <translation>可以使用免费的 Notebook 平台（Google Colab、Kaggle），或者按小时租用 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="89"/>
        <source>This laptop is running on battery: the GPU is held to a much lower power limit, and a training run would drain the battery{pct}.</source>
        <translation>这台笔记本电脑正在用电池供电，GPU 的功耗上限会被压得很低，而且一次训练就会把电池耗光{pct}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="91"/>
        <source> (now at {p}%)</source>
        <translation>（当前电量 {p}%）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="92"/>
        <source>Plug in the charger before training, and set the power mode to performance.</source>
        <translation>训练前请插上充电器，并把电源模式设为“高性能”。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="107"/>
        <source>{gpu} is split into MIG slices: this job gets {slice}, but as it is configured it needs {need}, which the whole GPU ({total}) would hold.</source>
        <translation>{gpu} 被划分成了 MIG 分区：这个训练任务只能用到 {slice}，但按当前配置它需要 {need}，而整块 GPU（{total}）是装得下的。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="111"/>
        <source>Ask the administrator to turn MIG off for this GPU ('sudo nvidia-smi -i {i} -mig 0', with no jobs running, then reset the GPU), or use the changes below to fit one slice.</source>
        <translation>请管理员为这块显卡关闭 MIG（在没有任务运行时执行 'sudo nvidia-smi -i {i} -mig 0'，然后重置 GPU），或者用下面的修改让任务装进一个分区。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="132"/>
        <source>{gpu} is slowing itself down because of heat ({why}). Training keeps the GPU at full load for hours, so it will run slower than its rated speed.</source>
        <translation>{gpu} 因为过热正在散热降频（{why}）。训练会让 GPU 连续几个小时满载运行，因此实际速度会低于标称速度。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="134"/>
        <source>{t} °C</source>
        <translation>{t} °C</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="135"/>
        <source>Clean the dust filters and fans, improve case airflow (or use a laptop cooling pad), and consider a slightly lower power limit (e.g. 'nvidia-smi -pl'): it costs little speed and keeps clocks steady.</source>
        <translation>清理防尘网和风扇，改善机箱风道（笔记本可以用散热底座），并考虑把功耗上限稍微调低（例如用 'nvidia-smi -pl'）：速度损失很小，频率却更稳定。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="170"/>
        <source>The scan cannot read your power supply's rating. With this GPU it should be at least {w} W.</source>
        <translation>扫描无法读取你的电源额定功率。搭配这块显卡，电源至少应为 {w} W。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="172"/>
        <source>Check the label on the power supply; if it is smaller, the PSU needs replacing.</source>
        <translation>请查看电源上的铭牌；如果功率不够，需要换一个电源。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="178"/>
        <source>{gpu} needs a {w} W power supply (vendor's requirement)</source>
        <translation>{gpu} 需要 {w} W 的电源（厂商要求）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="180"/>
        <source>this system needs about {w} W under full load</source>
        <translation>整机满载时大约需要 {w} W</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="185"/>
        <source>Your power supply is rated {rated} W, but {who}. Training holds the GPU at up to {gpu_w} W for hours, and short power spikes can trip the supply's protection: sudden shutdowns or reboots in the middle of a run.</source>
        <translation>你的电源额定功率为 {rated} W，不够用：{who}。训练会让 GPU 连续几个小时保持在最高 {gpu_w} W，短暂的功耗尖峰可能触发电源保护：训练到一半突然关机或重启。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="189"/>
        <source>Replace the power supply with a {w} W or larger ATX 3.x unit. Until then, cap the GPU's power, e.g. 'sudo nvidia-smi -pl {cap}': its clock drops by about {p}%, and steps bound by the memory or the CPU lose less.</source>
        <translation>换一个 {w} W 或更大的 ATX 3.x 电源。在此之前，先限制 GPU 的功耗，例如 'sudo nvidia-smi -pl {cap}'：GPU 频率大约下降 {p}%，受显存带宽或 CPU 限制的训练步损失更小。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="228"/>
        <source>{gpu} is connected with only {w} PCIe lanes{speed} and the GPUs have no NVLink: multi-GPU training swaps gradients over PCIe every step, so it will scale poorly.</source>
        <translation>{gpu} 只连接了 {w} 条 PCIe 通道{speed}，而且这些 GPU 之间没有 NVLink：多卡训练每一步都要通过 PCIe 交换梯度，所以加速效果会很差。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="230"/>
        <source> (about {g} GB/s)</source>
        <translation>（约 {g} GB/s）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="231"/>
        <source>Move the GPUs to slots wired x8 or x16 (see the motherboard manual), or train on one GPU with gradient accumulation.</source>
        <translation>把 GPU 插到 x8 或 x16 通道的插槽上（见主板说明书），或者只用一块 GPU 配合梯度累积来训练。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="239"/>
        <source>{gpu} runs on only {w} PCIe lanes (a chipset slot or riser?). Single-GPU training is mostly fine, but loading data and CPU offload will be slower.</source>
        <translation>{gpu} 只用了 {w} 条 PCIe 通道（插在芯片组插槽上，或用了延长线？）。单卡训练基本不受影响，但数据加载和 CPU 卸载会变慢。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="242"/>
        <source>This laptop connects {gpu} with {w} PCIe lanes, as it was built. Single-GPU training is mostly fine; loading data and CPU offload are slower than on a desktop.</source>
        <translation>这台笔记本电脑的 {gpu} 出厂就只接了 {w} 条 PCIe 通道。单卡训练基本不受影响，只是数据加载和 CPU 卸载比台式机慢一些。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="244"/>
        <source>Use the top x16 slot if you can.</source>
        <translation>如果可以，请使用最上面的 x16 插槽。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="245"/>
        <source>Nothing to change: a laptop's GPU link is fixed. Keep the data set on the internal SSD.</source>
        <translation>这是笔记本电脑的硬件设计，无需处理；把数据集放在内置固态硬盘上即可。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="270"/>
        <source>add RAM, </source>
        <translation>加装内存，</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="271"/>
        <source>Close other programs (browsers, games, other notebooks) before training; {add}use fewer DataLoader workers, or stream the data set (datasets' streaming=True / memory-mapped files) instead of loading it whole.</source>
        <translation>训练前关闭其他程序（浏览器、游戏、其他 Jupyter Notebook）；{add}减少 DataLoader 的 worker 数量，或者以流式读取数据集（datasets 的 streaming=True / 内存映射文件），不要整个加载进内存。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="276"/>
        <source>WSL 2 lets Linux use only part of the PC's memory (half by default). Give it more in %UserProfile%\.wslconfig — [wsl2] then memory=… (e.g. three quarters of your RAM) — and run 'wsl --shutdown'. Otherwise: {fix}</source>
        <translation>WSL 2 只让 Linux 使用电脑内存的一部分（默认一半）。在 %UserProfile%\.wslconfig 里调大（先写 [wsl2]，再写 memory=…，例如内存的四分之三），然后运行 'wsl --shutdown'。否则，{fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="280"/>
        <source>This job needs about {need} of RAM, but this computer has {have}: it would swap to disk and crawl, or be killed.</source>
        <translation>这个训练任务大约需要 {need} 内存，但这台电脑只有 {have}，它会频繁使用硬盘交换空间而慢如蜗牛，或者被系统强制结束。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="283"/>
        <source>This job needs about {need} of RAM; {free} of {have} was free when the PC was scanned: other programs hold the rest.</source>
        <translation>这个任务需要约 {need} 内存；扫描时 {have} 中只有 {free} 空闲，其余的被其他程序占用。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="332"/>
        <source>, or decode on the GPU with NVIDIA DALI</source>
        <translation>，或者用 NVIDIA DALI 在 GPU 上解码</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="335"/>
        <source>The GPU could train on about {gpu} images/s, but this CPU can decode and augment only about {cpu} images/s with {w} DataLoader workers{how}: the GPU will wait for data and the run takes about {f}× longer ({h}).</source>
        <translation>GPU 每秒大约能训练 {gpu} 张图像，但这颗 CPU 用 {w} 个 DataLoader worker 每秒只能解码和增强约 {cpu} 张{how}，GPU 会一直等数据，整个训练的耗时变为原来的约 {f} 倍（{h}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="339"/>
        <source> (measured)</source>
        <translation>（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="339"/>
        <source> (typical for this core count)</source>
        <translation>（该核心数的典型值）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="341"/>
        <source>Use DataLoader(num_workers={w}, pin_memory=True, persistent_workers=True); resize the images once to the training size before training{dali}.</source>
        <translation>使用 DataLoader(num_workers={w}, pin_memory=True, persistent_workers=True)；在训练前先把图像一次性缩放到训练尺寸{dali}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="364"/>
        <source>reading each clip's precomputed features back as Python lists and padding them</source>
        <translation>把每段音频预先算好的特征以 Python 列表形式读回并补齐</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="365"/>
        <source>Set dataloader_num_workers={w} in the training arguments so the CPU prepares the next batches while the GPU trains, or read the features as arrays (dataset.with_format("torch")).</source>
        <translation>在训练参数中设置 dataloader_num_workers={w}，让 CPU 在 GPU 训练的同时准备后面的批次；或者以数组形式读取特征（dataset.with_format("torch")）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="368"/>
        <source>decoding and resampling each compressed audio clip</source>
        <translation>逐条解码并重采样压缩音频片段</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="369"/>
        <source>Set dataloader_num_workers={w} in the training arguments so the CPU decodes the next clips while the GPU trains, or decode the clips once before training (dataset.map without streaming).</source>
        <translation>在训练参数中设置 dataloader_num_workers={w}，让 CPU 在 GPU 训练的同时解码后续片段；或在训练前一次性解码所有片段（不用流式加载，使用 dataset.map）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="371"/>
        <source>Decode the clips once before training (dataset.map without streaming), or use a CPU with more cores.</source>
        <translation>在训练前一次性解码所有片段（不用流式加载，使用 dataset.map），或换用核心更多的 CPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="374"/>
        <source>computing each clip's log-Mel features in the training process</source>
        <translation>在训练进程里为每段音频计算 log-Mel 特征</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="375"/>
        <source>Compute the features once before training (dataset.map), or set dataloader_num_workers={w} in the training arguments so the CPU prepares the next batches while the GPU trains.</source>
        <translation>在训练前一次性算好特征（dataset.map），或在训练参数中设置 dataloader_num_workers={w}，让 CPU 在 GPU 训练的同时准备后面的批次。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="378"/>
        <source>computing each clip's log-Mel features in the DataLoader workers</source>
        <translation>在 DataLoader 工作进程里为每段音频计算 log-Mel 特征</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="379"/>
        <source>Compute the features once before training (dataset.map), or use a CPU with more cores.</source>
        <translation>在训练前一次性算好特征（dataset.map），或换用核心更多的 CPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="382"/>
        <source>The CPU, not the GPU, sets the pace: {work} takes about {cpu} s of each {step} s step, the GPU's work about {gpu} s.</source>
        <translation>决定速度的是 CPU 而不是 GPU：{work}，每步 {step} 秒中约占 {cpu} 秒，GPU 的计算只需约 {gpu} 秒。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="432"/>
        <source>The data set, model and checkpoints need about {need} of free disk space; the most free space on any disk here is {have}.</source>
        <translation>数据集、模型和检查点大约需要 {need} 的可用硬盘空间；这台电脑上可用空间最大的硬盘只有 {have}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="435"/>
        <source>Free some space, keep fewer checkpoints (save_total_limit=2), or add an SSD.</source>
        <translation>清理一些空间，少保留几个检查点（save_total_limit=2），或者加一块固态硬盘。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="458"/>
        <source>Copy the data set to the {kind} drive {mount} (it has {free} free) and train from there.</source>
        <translation>把数据集复制到 {kind} 硬盘 {mount}（可用空间 {free}），然后从那里训练。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="461"/>
        <source>Put the data set on an NVMe SSD, or pack it into a few large files (WebDataset tar shards, LMDB) so the disk reads sequentially.</source>
        <translation>把数据集放到 NVMe 固态硬盘上，或者打包成少量大文件（WebDataset tar 分片、LMDB），让硬盘顺序读取。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="468"/>
        <source>The data set ({size}) is on {mount} ({kind}), which reads about {rate} MB/s of small files; the first epoch will take about {h} to read, later epochs come from the RAM cache.</source>
        <translation>数据集（{size}）位于 {mount}（{kind}），读取小文件的速度约为 {rate} MB/s；第一轮光读数据就要大约 {h}，之后几轮会从内存缓存中读取。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/host.py" line="477"/>
        <source>Training wants about {need} MB/s of images, but the data set ({size}) is on {mount} ({kind}), which reads only about {rate} MB/s of small files in random order, and it is too big to stay in RAM: the disk limits training to about {n} images/s.</source>
        <translation>训练需要每秒读取约 {need} MB 的图像，但数据集（{size}）位于 {mount}（{kind}），随机读取小文件只有约 {rate} MB/s，而且数据集太大，无法常驻内存，所以硬盘把训练速度限制在每秒约 {n} 张图像。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="92"/>
        <source>plain data parallel (DDP)</source>
        <translation>普通数据并行（DDP）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="92"/>
        <location filename="../../gpucheck/advise/present.py" line="210"/>
        <source>DeepSpeed ZeRO-1</source>
        <translation>DeepSpeed ZeRO-1</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="93"/>
        <location filename="../../gpucheck/advise/present.py" line="210"/>
        <source>DeepSpeed ZeRO-2</source>
        <translation>DeepSpeed ZeRO-2</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="93"/>
        <source>DeepSpeed ZeRO-3 / FSDP full shard</source>
        <translation>DeepSpeed ZeRO-3 / FSDP 完全分片</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="94"/>
        <source>DeepSpeed ZeRO-3 with the optimizer offloaded to CPU RAM</source>
        <translation>DeepSpeed ZeRO-3，并把优化器卸载到 CPU 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="116"/>
        <source>Shard the model across the {n} GPUs: {how}</source>
        <translation>把模型切分到 {n} 块 GPU 上（{how}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="117"/>
        <source>costs time: more communication between GPUs each step; fine over NVLink, slower over PCIe</source>
        <translation>每步 GPU 之间的通信更多；有 NVLink 没问题，走 PCIe 会慢一些</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="146"/>
        <source>Offload the FP32 master weights, gradients and optimizer state to CPU RAM (DeepSpeed ZeRO-Offload)</source>
        <translation>把 FP32 主权重、梯度和优化器状态卸载到 CPU 内存（DeepSpeed ZeRO-Offload）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="148"/>
        <source>Offload the sharded model weights to CPU RAM (FSDP CPU offload)</source>
        <translation>把分片后的模型权重卸载到 CPU 内存（FSDP CPU 卸载）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="149"/>
        <source>costs time: steps are about {f}× slower; DeepSpeed's CPU AdamW keeps 32-bit optimizer states in RAM (no 8-bit optimizer); needs {ram} of RAM in all</source>
        <translation>每步耗时变为原来的约 {f} 倍；DeepSpeed 的 CPU AdamW 把 32 位优化器状态放在内存中（不用 8 位优化器）；总共需要 {ram} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="152"/>
        <source>costs time: steps are about {f}× slower; needs {ram} of RAM in all</source>
        <translation>每步耗时变为原来的约 {f} 倍；总共需要 {ram} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="360"/>
        <source>DreamBooth with LoRA (rank {r}) instead of all U-Net weights</source>
        <translation>用 LoRA（秩 {r}）做 DreamBooth，而不训练全部 U-Net 权重</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="361"/>
        <source>Fine-tune with LoRA (rank {r}) instead of all weights</source>
        <translation>用 LoRA（秩 {r}）微调，而不是训练全部权重</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="362"/>
        <source>a different method: trains small adapter matrices only; far less memory, quality is close to a full fine-tune for most tasks</source>
        <translation>换一种方法，只训练小的适配器矩阵；显存少得多，多数任务的质量接近全量微调</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="365"/>
        <source>Use LoRA on a 16-bit model instead of QLoRA</source>
        <translation>用 16 位模型上的 LoRA 代替 QLoRA</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="366"/>
        <source>a different method: 4-bit loading is not available on this GPU; the frozen model takes about {m}× more memory</source>
        <translation>换一种方法；这块显卡不支持 4 位加载，冻结的模型占用的显存会变为原来的约 {m} 倍</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="373"/>
        <source>a different method: about {m}× less memory for the model; steps take about {r}× as long as with LoRA here (dequantizing the weights), slightly lower quality</source>
        <translation>换一种方法，模型占用的显存约减少到 1/{m}；在这里每步耗时约为 LoRA 的 {r} 倍（要反量化权重），质量略低</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="376"/>
        <source>a different method: about {m}× less memory for the model; steps take longer than with LoRA (dequantizing the weights), slightly lower quality</source>
        <translation>换一种方法，模型占用的显存约减少到 1/{m}；每步比 LoRA 更慢（要反量化权重），质量略低</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="379"/>
        <source>; this model's trainers advise against 4-bit: its quantization error is larger than usual</source>
        <translation>；这个模型的训练框架不建议用 4 位：其量化误差比通常更大</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="380"/>
        <source>Use QLoRA: load the frozen model in 4-bit (NF4)</source>
        <translation>使用 QLoRA（以 4 位 NF4 格式加载冻结的模型）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="439"/>
        <source>Pack several short samples into each {n}-token row (sequence packing)</source>
        <translation>把多条短样本拼进每一行 {n} token 的序列（序列打包）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="440"/>
        <source>needs FlashAttention 2 (load the model with attn_implementation="flash_attention_2"), which keeps packed samples from attending to each other; there are fewer optimizer steps per epoch, so check the learning-rate schedule</source>
        <translation>需要 FlashAttention 2（加载模型时设 attn_implementation="flash_attention_2"），它能让打包在一起的样本互不关注；每轮的优化器步数变少，请检查学习率调度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="458"/>
        <source>uses more GPU memory ({gib}); the effective batch stays the same because gradient accumulation drops to {a}</source>
        <translation>显存用得更多（{gib}）；梯度累积降到 {a}，所以有效批大小不变</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="460"/>
        <source>uses more GPU memory ({gib}) and makes the effective batch {b} samples: fewer optimizer steps, so raise the learning rate or train for more epochs if the loss stalls</source>
        <translation>显存用得更多（{gib}），有效批大小变为 {b} 个样本，优化器步数变少；如果 loss 停滞，请调高学习率或多训练几轮</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="465"/>
        <source>Raise the micro-batch from {a} to {b}</source>
        <translation>把微批次从 {a} 提高到 {b}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="485"/>
        <source>Step with fused AdamW instead of Adafactor</source>
        <translation>改用融合的 AdamW 代替 Adafactor 来更新参数</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="486"/>
        <source>uses more GPU memory ({gib} in all): AdamW keeps two values for every trained parameter, Adafactor almost none; the time it saves is Adafactor's step, 24 GPU operations per tensor launched one tensor at a time, which the CPU cannot issue as fast as the GPU runs them</source>
        <translation>显存用得更多（共 {gib}）：AdamW 为每个被训练的参数保存两个值，Adafactor 几乎不保存；省下的时间来自 Adafactor 的更新步骤——它逐个张量地发起每个张量 24 个 GPU 操作，CPU 发起的速度跟不上 GPU 执行的速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="507"/>
        <source>Train a smaller model instead: {title}</source>
        <translation>改为训练更小的模型，{title}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/ladder.py" line="508"/>
        <source>a different model: a smaller model is less capable, but it fits this GPU</source>
        <translation>换成更小的模型，能力弱一些，但这块显卡装得下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/loss_speed.py" line="40"/>
        <source>Use TRL's plain cross-entropy loss</source>
        <translation>改用 TRL 的普通交叉熵损失</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/loss_speed.py" line="46"/>
        <source>uses more GPU memory ({gib} in all): the scores over all {vocab} tokens of the vocabulary are kept for the whole batch, where TRL's default chunked loss copies the output layer for every 256 tokens, which takes longer</source>
        <translation>多占显存（共 {gib}）：整批数据对词表全部 {vocab} 个词元的得分都要保留；TRL 默认的分块损失每 256 个词元就复制一次输出层，因此更慢</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/mirrors.py" line="114"/>
        <source>in cmd (Command Prompt) instead: {line}</source>
        <translation>如果用的是 cmd（命令提示符），改为运行 {line}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/mirrors.py" line="139"/>
        <source>In mainland China, download models through a Hugging Face mirror (set before the first import):</source>
        <translation>国内网络请通过 Hugging Face 镜像下载模型（必须放在所有 import 之前）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/mirrors.py" line="141"/>
        <source>In mainland China, download models through a Hugging Face mirror:</source>
        <translation>国内网络请通过 Hugging Face 镜像下载模型：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/mirrors.py" line="144"/>
        <source>{model} is gated: Hugging Face (and its mirror) serves it only to an account whose access request was approved; pass your token (huggingface-cli login) or use ModelScope</source>
        <translation>{model} 是需申请授权的模型：Hugging Face（及其镜像）只向访问申请已获批准的账号提供下载；请先登录（huggingface-cli login）使用你的令牌，或改用魔搭 ModelScope</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/mirrors.py" line="148"/>
        <source>or download the same model from ModelScope and load it from that folder:</source>
        <translation>或者从魔搭 ModelScope 下载同一个模型，再从下载的文件夹加载：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/mirrors.py" line="150"/>
        <source>pip packages from a domestic mirror: pip install &lt;package&gt; -i {url}</source>
        <translation>pip 包可用国内镜像安装：pip install &lt;包名&gt; -i {url}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="19"/>
        <source>this PC's CPU (no usable GPU)</source>
        <translation>本机的 CPU（没有可用的 GPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="20"/>
        <location filename="../../gpucheck/advise/multi.py" line="74"/>
        <source>this GPU</source>
        <translation>这块显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="64"/>
        <source>On {k} GPU(s) it would take about {h} instead of {h0}, but only with a change that gives up more: {steps}. This plan keeps what is trained without it.</source>
        <translation>用 {k} 块 GPU 大约只需 {h}（而不是 {h0}），但要做一项牺牲更多的改动：{steps}。本方案不做这项改动，训练内容保持不变。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="75"/>
        <source>{k} of the {n}× {name}</source>
        <translation>{n}× {name} 中的 {k} 块</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="79"/>
        <source>DeepSpeed ZeRO-{s} with CPU offload</source>
        <translation>DeepSpeed ZeRO-{s} 加 CPU 卸载</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="80"/>
        <source>{target} ({how})</source>
        <translation>{target}（{how}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="89"/>
        <source>ZeRO stage {s} shards the model's state over several GPUs; on one GPU there is nothing to share it with, so the figures are those of one GPU holding everything. On one GPU only CPU offload (ZeRO-Offload) saves GPU memory: the plan below uses it when the job needs it.</source>
        <translation>ZeRO 第 {s} 阶段把模型状态分片到多块 GPU 上；只有一块 GPU 时无从分摊，所以数字是一块 GPU 保存全部内容时的。单块 GPU 只有 CPU 卸载（ZeRO-Offload）能节省显存：下面的方案在需要时会使用它。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="100"/>
        <source> (about {p}% of linear speed-up)</source>
        <translation>（约为线性加速的 {p}%）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="103"/>
        <location filename="../../gpucheck/advise/plan.py" line="204"/>
        <source>{n} GPUs are {m} machines joined by a network: traffic between machines is much slower than inside one{pct}.</source>
        <translation>{n} 块 GPU 是通过网络连在一起的 {m} 台机器：机器之间的通信比单台机器内部慢得多{pct}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="106"/>
        <source>The {n} GPUs are linked by AMD Infinity Fabric: the traffic of sharded training is fast and scaling is good{pct}.</source>
        <translation>这 {n} 块 GPU 之间有 AMD Infinity Fabric 互联：分片训练的数据交换很快，多卡加速效果好{pct}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="109"/>
        <source>The {n} GPUs are linked by NVLink: the traffic of sharded training is fast and scaling is good{pct}.</source>
        <translation>这 {n} 块 GPU 之间有 NVLink 互联：分片训练的数据交换很快，多卡加速效果好{pct}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="112"/>
        <source>The {n} GPUs talk over PCIe (no NVLink): sharded training spends more time exchanging data{pct}.</source>
        <translation>这 {n} 块 GPU 之间通过 PCIe 通信（没有 NVLink）：分片训练要花更多时间交换数据{pct}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="118"/>
        <source>Data parallel on {n} GPUs at micro-batch {b} trains with an effective batch of {eff} samples per step, larger than the job's {want}: raise the learning rate to match, or use fewer GPUs.</source>
        <translation>在 {n} 块 GPU 上以微批次 {b} 做数据并行，每步的有效批大小是 {eff} 个样本，大于这个任务的 {want}，请相应调高学习率，或者少用几块 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/multi.py" line="123"/>
        <source>Data parallel on {n} GPUs at micro-batch {b} trains with an effective batch of {eff} samples per step (the job as configured: {want}); set gradient_accumulation_steps={k} to keep it close, or raise the learning rate for the larger batch.</source>
        <translation>在 {n} 块 GPU 上以微批次 {b} 做数据并行，每步的有效批大小是 {eff} 个样本（按当前设置是 {want}）；设置 gradient_accumulation_steps={k} 可以保持接近，或者为更大的批次调高学习率。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="78"/>
        <source>How long it takes is unknown: this GPU's speed is not in the catalog. It is built into the processor, so it is slower than a laptop's graphics card: even {gpu}, the fastest in the catalog, would take about {h}.</source>
        <translation>需要多久未知：这块显卡的速度不在目录中。它集成在处理器里，比笔记本的独立显卡慢：即使是目录中最快的 {gpu} 也要约 {h}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="93"/>
        <source>Fits on {target}, but even {gpu}, faster than this built-in GPU, would take about {h} (more than {limit}): too slow to be practical here.</source>
        <translation>{target} 装得下，但即使是比这块集成 GPU 更快的 {gpu} 也要约 {h}（超过 {limit}）：在这里太慢，不实用。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="98"/>
        <source>The changes move work into system RAM: the job then needs about {ram} of it, which was not checked (this computer's RAM is not known here).</source>
        <translation>这些改动会把一部分工作移到系统内存（RAM）：任务因此需要约 {ram} 内存，这里未作检查（不知道这台电脑的内存大小）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="104"/>
        <source>Runs on {target} as it is: about {h0}; about {h} on {k} of the {n} GPUs (see below).</source>
        <translation>在 {target} 上可以直接运行：大约需要 {h0}；只用 {n} 块 GPU 中的 {k} 块大约需要 {h}（见下文）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="206"/>
        <source>Using {k} of the {n} GPUs is as fast or faster here: beyond that, the traffic between GPUs costs more time than the extra GPUs save.</source>
        <translation>这里只用 {n} 块 GPU 中的 {k} 块就一样快甚至更快：再多的话，GPU 之间的通信花掉的时间比多出的 GPU 省下的还多。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="278"/>
        <source>GPU time only: whether the provider's CPUs and disks keep up is not known (on this PC they stretch {gpu} of GPU time to {host})</source>
        <translation>仅为 GPU 时间，云服务器的 CPU 和硬盘能否跟上尚不清楚（在本机上，它们把 {gpu} 的 GPU 时间拉长到 {host}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="310"/>
        <source>With CPU offload (DeepSpeed ZeRO-Offload) it would need only about {v} of GPU memory, but about {r} of system RAM, more than this PC's {have}: RAM, not the GPU, is what stops it.</source>
        <translation>如果用 CPU 卸载（DeepSpeed ZeRO-Offload），只需要约 {v} 显存，但需要约 {r} 系统内存，超过这台电脑的 {have}：卡住它的是内存，而不是 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="360"/>
        <source>Runs on {target} as it is (how long is unknown: this GPU's speed is not in the catalog).</source>
        <translation>在 {target} 上可以直接运行（需要多长时间未知：显卡列表中没有这块显卡的速度数据）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="363"/>
        <source>Runs on {target} as it is: about {h}.</source>
        <translation>在 {target} 上可以直接运行：大约需要 {h}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="365"/>
        <source>Runs on {target} with the changes listed below (how long is unknown: this GPU's speed is not in the catalog).</source>
        <translation>在 {target} 上按下面列出的修改后可以运行（需要多长时间未知：显卡列表中没有这块显卡的速度数据）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="368"/>
        <source>Runs on {target} with the changes listed below: about {h}.</source>
        <translation>在 {target} 上按下面列出的修改后可以运行：大约需要 {h}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="372"/>
        <source>Fits on {target}, but the bottlenecks below stretch it to about {h} (more than {limit}): too slow until they are fixed.</source>
        <translation>在 {target} 上装得下，但下面的瓶颈会让它拖到大约 {h}（超过 {limit}）：解决这些瓶颈之前太慢了。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="375"/>
        <source>Fits on {target}, but takes about {h} (more than {limit}): too slow to be practical here.</source>
        <translation>在 {target} 上装得下，但大约需要 {h}（超过 {limit}）：太慢，不太实用。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="379"/>
        <source>Does not fit in the memory (RAM) of this computer: the job needs about {need} of system RAM, and it has {have}.</source>
        <translation>这台电脑的内存装不下：这个训练任务大约需要 {need} 系统内存，而本机只有 {have}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="382"/>
        <source>Does not fit on {target}: even with every change that keeps the same training it needs about {need} per GPU, and {have} is available.</source>
        <translation>{target} 装不下：即使用上所有不改变训练内容的调整，每块 GPU 仍需要约 {need}，而可用的只有 {have}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="386"/>
        <source>Cannot train on {target}. {why}</source>
        <translation>无法在 {target} 上训练。{why}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="393"/>
        <source>Tight on system RAM: the job needs about {need}, {free} of {have} was free at the scan. It may run: close other programs first; if it runs out of memory, see the RAM fix below.</source>
        <translation>内存很紧：这个任务需要约 {need}，扫描时 {have} 中只有 {free} 空闲。可能可以运行，请先关闭其他程序；如果内存不足，请看下方针对内存的解决办法。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="398"/>
        <source>if it runs out of memory, switch to {alt}</source>
        <translation>如果显存不足，就改为{alt}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="399"/>
        <source>if it runs out of memory, close other programs and lower the micro-batch or sequence length</source>
        <translation>如果显存不足，先关闭其他程序，再调小微批次或序列长度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="400"/>
        <source>About {h}.</source>
        <translation>约 {h}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="401"/>
        <source>How long it takes is unknown: this GPU's speed is not in the catalog.</source>
        <translation>显卡列表中没有这块显卡的速度，所以需要多长时间未知。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="402"/>
        <source>Tight on {target}: it needs about {need} per GPU (between {lo} and {hi}, the estimate's error on published runs) and {have} is usable. It may fit — try it; {then}. {speed}</source>
        <translation>{target} 上很紧：每块 GPU 需要约 {need}（对照已公开的训练，估算误差范围为 {lo} 到 {hi}），可用 {have}。可能装得下，可以试试；{then}。{speed}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="422"/>
        <source>A Mac's GPU cannot be upgraded: rent a cloud GPU for jobs that do not fit.</source>
        <translation>Mac 的 GPU 无法升级：装不下的训练任务可以租用云 GPU 来跑。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="425"/>
        <source>A laptop's GPU cannot be replaced: rent a cloud GPU, or use a desktop.</source>
        <translation>笔记本的显卡无法更换：可以租用云 GPU，或者使用台式机。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="428"/>
        <source>Office and small desktop PCs often have a 200-300 W power supply without PCIe power cables and little room inside: check both before buying a graphics card.</source>
        <translation>办公电脑和小型台式机的电源通常只有 200-300 W，没有 PCIe 供电线，机箱内部空间也很小：买显卡之前请先检查这两点。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="433"/>
        <source>A Mac's GPU cannot be upgraded: rent a cloud GPU for jobs that do not fit, or train on a desktop PC with a graphics card that runs it (see the cloud GPUs for which one).</source>
        <translation>Mac 的 GPU 无法升级：放不下的任务请租用云 GPU，或在装有能跑它的显卡的台式机上训练（该用哪块卡见云 GPU 部分）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="436"/>
        <source>A laptop's GPU cannot be replaced: rent a cloud GPU, or train on a desktop PC with a graphics card that runs it (see the cloud GPUs for which one).</source>
        <translation>笔记本的 GPU 无法更换：请租用云 GPU，或在装有能跑它的显卡的台式机上训练（该用哪块卡见云 GPU 部分）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="463"/>
        <source>this job needs about {need} of RAM</source>
        <translation>这个训练任务大约需要 {need} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="465"/>
        <source>buy the type your motherboard takes (DDR4 or DDR5) and check its free slots</source>
        <translation>请购买主板支持的类型（DDR4 或 DDR5），并确认还有空闲插槽</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="477"/>
        <source>a fast drive big enough for the data set and checkpoints ({size})</source>
        <translation>一块足够快、容量装得下数据集和检查点（{size}）的硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="483"/>
        <source>the GPU needs a {w} W power supply</source>
        <translation>这块显卡需要 {w} W 的电源</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="498"/>
        <source>{id} — {verdict}: {brief}</source>
        <translation>{id} — {verdict}：{brief}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="500"/>
        <source>{id} — {verdict}</source>
        <translation>{id} — {verdict}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/plan.py" line="504"/>
        <location filename="../../gpucheck/commands.py" line="371"/>
        <source>Advice:</source>
        <translation>建议：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="139"/>
        <source>Free</source>
        <translation>免费</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="140"/>
        <source>Cheapest</source>
        <translation>最便宜</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="141"/>
        <source>Fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="142"/>
        <source>Cheapest in China</source>
        <translation>国内最便宜</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="143"/>
        <source>Fastest in China</source>
        <translation>国内最快</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="144"/>
        <source>Cheapest outside China</source>
        <translation>境外最便宜</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="145"/>
        <source>Fastest outside China</source>
        <translation>境外最快</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="146"/>
        <source>Several GPUs</source>
        <translation>多块 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="157"/>
        <location filename="../../gpucheck/advise/present.py" line="162"/>
        <location filename="../../gpucheck/report/job_section.py" line="184"/>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="146"/>
        <source>free</source>
        <translation>免费</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="167"/>
        <source>{n}× {gpu}</source>
        <translation>{n}× {gpu}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="168"/>
        <location filename="../../gpucheck/report/job_section.py" line="252"/>
        <source>{gpus}, {how}</source>
        <translation>{gpus}，{how}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="175"/>
        <source>{rate}, {cost} in all</source>
        <translation>{rate}，共 {cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="176"/>
        <source>{label}: {provider}, {gpus}, about {h}, {cost}</source>
        <translation>{label}：{provider}，{gpus}，约 {h}，{cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="179"/>
        <source>{line} — {note}</source>
        <translation>{line}。{note}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="188"/>
        <source>use {gpus} free on {provider}, about {h}</source>
        <translation>在 {provider} 免费使用 {gpus}，约 {h}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="190"/>
        <source>rent {gpus} on {provider}, about {h}, {cost}</source>
        <translation>在 {provider} 租用 {gpus}，约 {h}，{cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="202"/>
        <location filename="../../gpucheck/report/job_section.py" line="260"/>
        <source>{provider} — {what}</source>
        <translation>{provider}——{what}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="204"/>
        <source>Also much used in mainland China (prices not listed: check on each site; not verified): {sites}</source>
        <translation>国内常用的还有以下平台（未列出价格，请到各平台官网查看，未核实）：{sites}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="211"/>
        <source>DeepSpeed ZeRO-3 / FSDP</source>
        <translation>DeepSpeed ZeRO-3 / FSDP</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="212"/>
        <source>DeepSpeed ZeRO-3 + CPU offload</source>
        <translation>DeepSpeed ZeRO-3 + CPU 卸载</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="213"/>
        <source>DeepSpeed ZeRO-Offload (CPU)</source>
        <translation>DeepSpeed ZeRO-Offload（卸载到 CPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="225"/>
        <source>{title}: fits this GPU with {need} per GPU.</source>
        <translation>{title}：这块显卡装得下，每块 GPU 需要 {need}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="227"/>
        <source>{title}: fits this GPU with {need} per GPU, but takes about {time} here — too slow; see the cloud GPUs.</source>
        <translation>{title}：这块显卡装得下，每块 GPU 需要 {need}，但在这里大约要 {time}——太慢了，请看“租用云 GPU”。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="229"/>
        <source>{title}: fits this GPU with {need} per GPU and takes about {time}.</source>
        <translation>{title}：这块显卡装得下，每块 GPU 需要 {need}，大约需要 {time}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="239"/>
        <source>{amount} (overseas price, about {other})</source>
        <translation>{amount}（海外价格，约 {other}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="241"/>
        <source>{amount} (overseas price)</source>
        <translation>{amount}（海外价格）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="251"/>
        <source>{name}: {price} — {reason}</source>
        <translation>{name}：{price} — {reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="252"/>
        <source>{name}: {price} — {reason}; with it this job takes about {h}</source>
        <translation>{name}：{price} — {reason}；换上后这个训练任务大约需要 {h}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="267"/>
        <source>Also tried instead, may fit but without room to spare: {title} (needs about {need} per GPU).</source>
        <translation>也试过改用：{title}，可能装得下，但没有余量（每块 GPU 约需 {need}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="269"/>
        <source>Also tried instead, does not fit either: {title} (needs {need} per GPU).</source>
        <translation>也试过改用：{title}，同样装不下（每块 GPU 需要 {need}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="277"/>
        <source>Tried, not enough:</source>
        <translation>已尝试，但仍不够：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="278"/>
        <source>  - {title}</source>
        <translation>  - {title}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="280"/>
        <source>Make these changes and try it (each keeps what is trained; it may still run out of memory):</source>
        <translation>做以下调整后试试（每项都不改变训练内容；仍可能显存不足）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="282"/>
        <source>What to change (in order, the cheapest first; each keeps what is trained and says what it costs):</source>
        <translation>需要调整的地方（按顺序，代价最小的在前；每项都不改变训练内容，并写明代价）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="286"/>
        <source>Settings to copy:</source>
        <translation>可复制的设置：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="290"/>
        <source>Optional, to finish sooner (each on its own; the steps are too small to keep the GPU busy):</source>
        <translation>可选，想更快完成（每项单独使用；现在每步的工作量太小，GPU 吃不满）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="291"/>
        <source>Optional, to finish sooner (each on its own):</source>
        <translation>可选，想更快完成（每项单独使用）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="293"/>
        <source>  - {title}: about {h} — trade-off: {cost}</source>
        <translation>  - {title}，约 {h} — 代价：{cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="299"/>
        <source>What fits instead: {title}.</source>
        <translation>能装下的替代方案：{title}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="300"/>
        <source>What fits instead: {title}, about {h}.</source>
        <translation>能装下的替代方案：{title}，大约需要 {h}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="302"/>
        <source>What fits instead: {title}, but it takes about {h} here (too slow; see the cloud options).</source>
        <translation>能装下的替代方案：{title}，但在这里大约需要 {h}（太慢，不如租用云 GPU）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="305"/>
        <location filename="../../gpucheck/advise/present.py" line="284"/>
        <source>  {i}. {title} — cost: {cost}</source>
        <translation>  {i}. {title} — 代价：{cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="309"/>
        <location filename="../../gpucheck/advise/present.py" line="389"/>
        <source>Software: {msg}</source>
        <translation>【软件】{msg}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="313"/>
        <location filename="../../gpucheck/advise/present.py" line="397"/>
        <source>Bottleneck: {msg}</source>
        <translation>【瓶颈】{msg}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="314"/>
        <location filename="../../gpucheck/advise/present.py" line="398"/>
        <source>  Fix: {fix}</source>
        <translation>  解决办法：{fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="316"/>
        <source>Upgrades:</source>
        <translation>升级：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="319"/>
        <source>Rent a cloud GPU:</source>
        <translation>租用云 GPU：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="324"/>
        <source>Buy or rent: {msg}</source>
        <translation>买还是租：{msg}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="334"/>
        <source>(needs about {ram} of system RAM, not checked)</source>
        <translation>（需要约 {ram} 系统内存，未检查）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="337"/>
        <source>try it; if it runs out of memory: {title}</source>
        <translation>试试看；如果显存不足，就改为{title}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="339"/>
        <source>try it; close other programs first</source>
        <translation>试试看；先关闭其他程序</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="343"/>
        <source>short of system RAM ({need} needed, {have} here): {fix}</source>
        <translation>系统内存不足（需要 {need}，本机 {have}），{fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="348"/>
        <source>slowed down by the {what}: {fix}</source>
        <translation>速度被{what}拖慢，{fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="356"/>
        <source>this GPU runs it with CPU offload, but this PC has too little RAM for that (see 'estimate'); or {rent}</source>
        <translation>这块显卡配合 CPU 卸载就能跑，但这台电脑的内存不够（见 'estimate'）；或者{rent}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="370"/>
        <source>What fits instead: {title}</source>
        <translation>能装下的替代方案：{title}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="373"/>
        <source>Way out: {brief}</source>
        <translation>出路：{brief}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="377"/>
        <source>CPU's image decoding</source>
        <translation>图像解码（CPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/present.py" line="377"/>
        <source>disk</source>
        <translation>硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/readiness.py" line="65"/>
        <source>Can train all {total} built-in jobs (some with the advised settings).</source>
        <translation>能训练全部 {total} 个内置训练任务（部分需按建议调整设置）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/readiness.py" line="67"/>
        <source>Can train {runs} of the {total} built-in jobs (some with the advised settings); the easiest it cannot is “{job}”.</source>
        <translation>能训练 {total} 个内置训练任务中的 {runs} 个（部分需按建议调整设置）；训练不了的任务中最简单的是“{job}”。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="62"/>
        <source>the experts' weights take LoRA through target_parameters (PEFT 0.17 or newer), which needs lora_dropout=0</source>
        <translation>专家权重要通过 target_parameters 加 LoRA（PEFT 0.17 或更新），这时需要 lora_dropout=0</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="75"/>
        <source>a mixture of experts in 4 bits needs each expert as its own linear layer: pip install "transformers&lt;5"</source>
        <translation>混合专家模型要以 4 位加载，每个专家须是独立的线性层：pip install "transformers&lt;5"</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="94"/>
        <source>the embeddings, output layer and norms stay 16-bit, as in the estimate: do not call PEFT's prepare_model_for_kbit_training, which casts them to fp32 ({gib} GiB more, and a slower step); TRL's SFTTrainer calls it no more since TRL 0.26</source>
        <translation>词嵌入、输出层和归一化层保持 16 位，与估算一致：不要调用 PEFT 的 prepare_model_for_kbit_training，它会把这些层转成 fp32（多占 {gib} GiB，每步也更慢）；TRL 的 SFTTrainer 从 0.26 起已不再调用它</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="106"/>
        <source>mixed precision keeps fp32 weights, as estimated: load or build the model with dtype=torch.float32 (transformers 5 takes the dtype its config names, bf16 for most LLMs, which then trains in pure bf16: --precision bf16-pure)</source>
        <translation>混合精度保留 fp32 权重，与估算一致：加载或构建模型时用 dtype=torch.float32（transformers 5 采用配置里写的 dtype，多数大模型是 bf16，训练就成了纯 bf16，即 --precision bf16-pure）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="111"/>
        <source>the frozen model stays 16-bit, as estimated: load it with dtype={dtype} (transformers 4, and TRL's SFTTrainer given a model name, load it in fp32: twice the weights)</source>
        <translation>冻结的模型保持 16 位，与估算一致：用 dtype={dtype} 加载（transformers 4，以及只给模型名称的 TRL SFTTrainer，会以 fp32 加载，权重翻倍）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="165"/>
        <source>packing=True needs a kernel that keeps packed samples apart: load the model with attn_implementation="flash_attention_2" (TRL docs, "Packing"; FlashAttention 2 needs an Ampere or newer NVIDIA GPU); without it the run takes longer than estimated</source>
        <translation>packing=True 需要能把拼接样本彼此隔开的注意力内核：加载模型时用 attn_implementation="flash_attention_2"（TRL 文档“Packing”；FlashAttention 2 需要 Ampere 或更新的 NVIDIA GPU）；否则训练时间会比估算的长</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="172"/>
        <source>Apple MPS: no fp16=True, this trains in FP32. FP16 mixed precision on MPS needs PyTorch 2.8 or newer and an accelerate release with MPS mixed precision (huggingface/accelerate#3373); older ones refuse it ("fp16 mixed precision requires a GPU (not 'mps')", huggingface/accelerate#3718)</source>
        <translation>Apple MPS：不设 fp16=True，这里用 FP32 训练。在 MPS 上用 FP16 混合精度需要 PyTorch 2.8 或更新版本，以及支持 MPS 混合精度的 accelerate 版本（huggingface/accelerate#3373）；旧版本会拒绝（"fp16 mixed precision requires a GPU (not 'mps')"，huggingface/accelerate#3718）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="177"/>
        <source>Apple MPS: bf16=True needs macOS 14, PyTorch 2.6 or newer and an accelerate release with MPS mixed precision (huggingface/accelerate#3373); else remove it and train in FP32</source>
        <translation>Apple MPS：bf16=True 需要 macOS 14、PyTorch 2.6 或更新版本，以及支持 MPS 混合精度的 accelerate 版本（huggingface/accelerate#3373）；否则请删掉它，用 FP32 训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="181"/>
        <source>pure bf16: load the model with torch_dtype=torch.bfloat16 (weights, gradients and AdamW state all in bf16)</source>
        <translation>纯 BF16：加载模型时设置 torch_dtype=torch.bfloat16（权重、梯度和 AdamW 状态都用 bf16）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="184"/>
        <source>pure fp16: load the model with torch_dtype=torch.float16 and leave fp16=True off (weights, gradients and optimizer state all in fp16, no loss scaling: small gradients can underflow)</source>
        <translation>纯 FP16：加载模型时设置 torch_dtype=torch.float16，且不要开启 fp16=True（权重、梯度和优化器状态都用 fp16，没有损失缩放：很小的梯度可能下溢为 0）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="199"/>
        <source>optimizer.step() every {k} batches</source>
        <translation>每 {k} 个批次调用一次 optimizer.step()</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="200"/>
        <source>plain PyTorch loop: {steps}</source>
        <translation>普通 PyTorch 训练循环：{steps}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="202"/>
        <source>use_liger_kernel=True: pip install liger-kernel (Hugging Face transformers 4.52 or newer; Linux or WSL2, or the triton-windows package on Windows)</source>
        <translation>use_liger_kernel=True：先 pip install liger-kernel（需要 Hugging Face transformers 4.52 或更新版本；Linux 或 WSL2，Windows 上可用 triton-windows 包）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="206"/>
        <source>tokenize with truncation=True, max_length={n} (TRL SFTConfig: max_length={n})</source>
        <translation>分词时设置 truncation=True、max_length={n}（TRL 的 SFTConfig 用 max_length={n}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="208"/>
        <source>model: {name}</source>
        <translation>模型：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="221"/>
        <source>import unsloth before trl and transformers</source>
        <translation>先 import unsloth，再导入 trl 和 transformers</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="268"/>
        <source>DeepSpeed config; the Trainer fills each "auto" from TrainingArguments</source>
        <translation>DeepSpeed 配置；每个 "auto" 由 Trainer 按 TrainingArguments 填写</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="279"/>
        <source>Ultralytics accumulates gradients to its nominal batch (nbs=64) by itself</source>
        <translation>Ultralytics 会自动把梯度累积到名义批大小（nbs=64）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="322"/>
        <source>CPU offload: run `accelerate config` and choose DeepSpeed, ZeRO stage 2, optimizer offloaded to the CPU (DeepSpeed's CPU Adam; no --use_8bit_adam)</source>
        <translation>卸载到 CPU：运行 `accelerate config`，选择 DeepSpeed、ZeRO 第 2 阶段、把优化器卸载到 CPU（使用 DeepSpeed 的 CPU Adam；不要加 --use_8bit_adam）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="325"/>
        <source>with --with_prior_preservation each batch holds the instance images and as many class images (generated into ./class_images first): the memory of twice the batch; gradient accumulation sums whole pairs, so it keeps the effective batch</source>
        <translation>使用 --with_prior_preservation 时，每个批次包含实例图像和同样数量的类别图像（先生成到 ./class_images）：显存相当于两倍批量；梯度累积按完整的成对样本求和，所以有效批量不变</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="329"/>
        <source>these scripts have no Adafactor option: kohya's sd-scripts take --optimizer_type "Adafactor", or replace the script's optimizer with transformers.optimization.Adafactor (scale_parameter=False, relative_step=False)</source>
        <translation>这些脚本没有 Adafactor 选项：kohya 的 sd-scripts 可以用 --optimizer_type "Adafactor"，或者把脚本里的优化器换成 transformers.optimization.Adafactor（scale_parameter=False, relative_step=False）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/recipes.py" line="333"/>
        <source>cache the VAE latents and text-encoder outputs before training (kohya sd-scripts: --cache_latents --cache_text_encoder_outputs --network_train_unet_only)</source>
        <translation>训练前缓存 VAE 潜变量和文本编码器的输出（kohya sd-scripts 用 --cache_latents --cache_text_encoder_outputs --network_train_unet_only）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="107"/>
        <source>Use {p} mixed precision</source>
        <translation>使用 {p} 混合精度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="108"/>
        <source>loses nothing: tensor cores make it faster, and the model keeps FP32 master weights</source>
        <translation>没有损失：Tensor Core让它更快，模型仍保留 FP32 主权重</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="150"/>
        <source>Let DDP keep the gradients in its communication buckets (gradient_as_bucket_view=True)</source>
        <translation>让 DDP 直接把梯度放在通信桶里（gradient_as_bucket_view=True）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="151"/>
        <source>loses nothing: PyTorch DDP otherwise keeps a second copy of every gradient on each GPU (with Accelerate: DistributedDataParallelKwargs(gradient_as_bucket_view=True))</source>
        <translation>没有任何损失：否则 PyTorch DDP 会在每张 GPU 上为所有梯度再保存一份副本（用 Accelerate 时：DistributedDataParallelKwargs(gradient_as_bucket_view=True)）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="170"/>
        <source>cuts almost no data (this data set averages about {avg} tokens), but packed rows of {n} tokens hold fewer samples: more steps, about {x}× the time here</source>
        <translation>几乎不会截掉数据（这个数据集平均约 {avg} 个 token），但每条 {n} token 的拼接序列能装下的样本更少，步数更多，这里大约要 {x} 倍的时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="175"/>
        <source>loses almost nothing: this data set averages about {avg} tokens, so only the rare sample longer than {n} tokens is cut off (or split)</source>
        <translation>几乎没有损失，这个数据集平均约 {avg} 个 token，只有少数超过 {n} 个 token 的样本会被截断（或拆分）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="177"/>
        <source>loses data: samples longer than {n} tokens are cut off (or split); little is lost when most of the data is shorter: this data set averages about {avg} tokens</source>
        <translation>超过 {n} 个 token 的样本会被截断（或拆分）；这个数据集平均约 {avg} 个 token，大部分数据更短，损失很小</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="179"/>
        <source>loses data: samples longer than {n} tokens are cut off (or split); check how long your samples are: little is lost when most of them are shorter</source>
        <translation>超过 {n} 个 token 的样本会被截断（或拆分）；先看看你的样本有多长，大部分样本更短时损失很小</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="181"/>
        <location filename="../../gpucheck/advise/rungs.py" line="169"/>
        <location filename="../../gpucheck/advise/rungs.py" line="174"/>
        <source>Limit the sequence length to {n} tokens</source>
        <translation>把序列长度限制为 {n} 个 token</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="205"/>
        <source>Batch {b} (Ultralytics accumulates gradients to its nominal batch of 64 by itself)</source>
        <translation>batch 设为 {b}（Ultralytics 会自动累积梯度到名义批量 64）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="206"/>
        <source>costs a little time, and BatchNorm layers now see {b} images at a time: their statistics are noisier, so results can differ</source>
        <translation>多花一点时间，且 BatchNorm 层每次只看到 {b} 张图，统计量更嘈杂，结果可能不同</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="210"/>
        <source>costs a little time, and BatchNorm layers now see {b} samples at a time: their statistics are noisier, so results can differ (GroupNorm or SyncBatchNorm avoid it)</source>
        <translation>会多花一点时间，而且 BatchNorm 层每次只看到 {b} 个样本，统计量噪声更大，结果可能不同（GroupNorm 或 SyncBatchNorm 可以避免）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="213"/>
        <source>the same training result; costs a little time because the processor does less work at a time</source>
        <translation>训练结果相同；因为处理器每次做的工作更少，会多花一点时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="215"/>
        <source>the same training result; costs a little time because the GPU does less work at a time</source>
        <translation>训练结果相同；因为 GPU 每次做的工作更少，会多花一点时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="216"/>
        <source>Micro-batch {b} with gradient accumulation {k} (same effective batch {n})</source>
        <translation>微批次 {b}，梯度累积 {k} 步（有效批大小仍为 {n}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="229"/>
        <source>Cache the latents and text embeddings before training (train the U-Net only)</source>
        <translation>训练前缓存潜变量和文本嵌入（只训练 U-Net）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="230"/>
        <source>the VAE and text encoders run once and leave the GPU, which also saves time; random crops and flips are then fixed per image, and the text encoder is not trained</source>
        <translation>VAE 和文本编码器只在开始前运行一次，之后不再占用显存，还能节省时间；代价是每张图的随机裁剪和翻转被固定下来，文本编码器也不参与训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="241"/>
        <source>Turn on gradient checkpointing</source>
        <translation>开启梯度检查点</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="242"/>
        <source>costs about {p}% more time: activations are recomputed in the backward pass</source>
        <translation>多花约 {p}% 的时间，因为反向传播时要重新计算激活值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="262"/>
        <source>Use the paged 8-bit AdamW optimizer (bitsandbytes)</source>
        <translation>使用分页 8 位 AdamW 优化器（bitsandbytes）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="263"/>
        <source>loses a little quality at most: optimizer memory falls from 8 to 2 bytes per parameter and results stay very close; paging moves memory spikes to the CPU</source>
        <translation>最多损失一点质量；优化器占用从每个参数 8 字节降到 2 字节，结果非常接近；分页会把显存峰值转移到 CPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="280"/>
        <source>Keep the weights and gradients in BF16 (no FP32 master copy) with 8-bit AdamW: 2 + 2 + 2 bytes per parameter</source>
        <translation>权重和梯度保持 BF16（不保留 FP32 主副本），配合 8 位 AdamW：每个参数 2 + 2 + 2 字节</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="282"/>
        <source>loses a little quality unless the updates are summed carefully: pure BF16 training drops small weight updates to rounding; use stochastic rounding or Kahan summation (Zamirai et al. 2020, "Revisiting BFloat16 Training", arXiv 2010.06192; torchao's AdamW8bit with bf16_stochastic_round, or optimi's Kahan-summed AdamW)</source>
        <translation>除非仔细累加更新，否则会略损质量：纯 BF16 训练会把很小的权重更新舍入掉；请用随机舍入或 Kahan 求和（Zamirai 等 2020，《Revisiting BFloat16 Training》，arXiv 2010.06192；torchao 的 AdamW8bit 配合 bf16_stochastic_round，或 optimi 的 Kahan 求和 AdamW）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="306"/>
        <source>Train at {n}×{n} pixels</source>
        <translation>以 {n}×{n} 像素训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/rungs.py" line="307"/>
        <source>loses detail: the model learns from smaller images, so fine detail at full resolution suffers</source>
        <translation>模型从更小的图片学习，全分辨率下的细节会变差</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="85"/>
        <source>install the newest Windows NVIDIA driver (WSL uses the Windows driver)</source>
        <translation>安装最新的 Windows 版 NVIDIA 驱动（WSL 使用的是 Windows 的驱动）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="98"/>
        <source>{gpu} was found, but no working NVIDIA driver: nothing can train on it until the driver is installed.</source>
        <translation>找到了 {gpu}，但没有可用的 NVIDIA 驱动：装好驱动之前，无法用它训练任何东西。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="123"/>
        <source>{gpu} (compute capability {cc}) is too old for current PyTorch builds.</source>
        <translation>{gpu}（计算能力 {cc}）太旧，当前的 PyTorch 版本已不支持。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="131"/>
        <source>The NVIDIA driver ({have}) is too old for current PyTorch builds, which need driver {need} or newer. Update the driver first, then install PyTorch.</source>
        <translation>NVIDIA 驱动（{have}）太旧，当前的 PyTorch 版本需要 {need} 或更新的驱动。请先更新驱动，再安装 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="133"/>
        <source>CUDA {v}</source>
        <translation>CUDA {v}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="141"/>
        <source>PyTorch is not installed in the Python this scan found. Install the build for {gpu}:</source>
        <translation>扫描找到的 Python 中没有安装 PyTorch。请安装适用于 {gpu} 的版本：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="150"/>
        <source>The installed PyTorch {v} is a CPU-only build: it cannot use {gpu}. Replace it with a CUDA build:</source>
        <translation>已安装的 PyTorch {v} 是仅支持 CPU 的版本，无法使用 {gpu}。请换成 CUDA 版本：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="160"/>
        <source>The installed PyTorch {v} (CUDA {cuda}) has no kernels for {gpu} (compute capability {cc}); it fails with 'no kernel image is available'. Install the {variant} build:</source>
        <translation>已安装的 PyTorch {v}（CUDA {cuda}）没有适用于 {gpu}（计算能力 {cc}）的内核，运行时会报错 'no kernel image is available'。请安装 {variant} 版本：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="170"/>
        <source>The installed PyTorch was built for CUDA {cuda}, but the driver supports only CUDA {have}. Update the NVIDIA driver, or install the build that matches it:</source>
        <translation>已安装的 PyTorch 是为 CUDA {cuda} 编译的，但驱动最高只支持 CUDA {have}。请更新 NVIDIA 驱动，或者安装与驱动匹配的版本：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="179"/>
        <source>PyTorch {v} is installed but cannot use the GPU ({why}). Reinstalling the matching build usually fixes it:</source>
        <translation>已安装 PyTorch {v}，但无法使用 GPU（{why}）。重新安装匹配的版本通常就能解决：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="180"/>
        <source>reason unknown</source>
        <translation>原因未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="193"/>
        <source>PyTorch's official ROCm builds for AMD GPUs run on Linux. On Windows, train under Linux (dual boot) or use a cloud GPU.</source>
        <translation>PyTorch 官方面向 AMD GPU 的 ROCm 版本只能在 Linux 上运行。在 Windows 上，请在 Linux 下训练（双系统），或使用云 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="201"/>
        <source>Install the ROCm build of PyTorch for {gpu}:</source>
        <translation>为 {gpu} 安装 ROCm 版本的 PyTorch：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="202"/>
        <source>The installed PyTorch {v} is not a ROCm build: it cannot use {gpu}. Replace it:</source>
        <translation>已安装的 PyTorch {v} 不是 ROCm 版本：无法使用 {gpu}。请替换为：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="212"/>
        <source>{gpu} ({gfx}) is not on ROCm's list of supported GPUs, so PyTorch has no kernels built for it. Telling ROCm to use a close relative's kernels usually works (unofficial):</source>
        <translation>{gpu}（{gfx}）不在 ROCm 官方支持的 GPU 列表中，因此 PyTorch 没有为它编译内核。让 ROCm 使用相近型号的内核通常可行（非官方方法）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="215"/>
        <source>{gpu} ({gfx}) is not on ROCm's list of supported GPUs: PyTorch may not run on it.</source>
        <translation>{gpu}（{gfx}）不在 ROCm 官方支持的 GPU 列表中：PyTorch 可能无法在它上面运行。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="236"/>
        <source>PyTorch uses the Apple GPU (MPS) only on macOS {need} or later; this Mac has macOS {have}. Update macOS first (Apple menu → System Preferences → Software Update), then install PyTorch:</source>
        <translation>PyTorch 只有在 macOS {need} 及以上才能用 Apple GPU（MPS）训练，这台 Mac 是 macOS {have}。请先升级 macOS（苹果菜单 → 系统偏好设置 → 软件更新），再安装 PyTorch：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="244"/>
        <source>PyTorch is not installed. The standard macOS build uses the Apple GPU (MPS):</source>
        <translation>尚未安装 PyTorch。标准的 macOS 版本就能使用 Apple GPU（MPS）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="250"/>
        <source>PyTorch cannot use the Apple GPU (MPS). This happens with an Intel (x86_64) Python running under Rosetta or macOS older than 12.3. Check that this prints 'arm64', then reinstall PyTorch in an arm64 Python:</source>
        <translation>PyTorch 无法使用 Apple GPU（MPS）。这通常是因为在 Rosetta 下运行了 Intel（x86_64）版的 Python，或者 macOS 版本低于 12.3。请确认下面的命令输出 'arm64'，然后在 arm64 版 Python 中重新安装 PyTorch：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="256"/>
        <source>a 4-bit MLX model</source>
        <translation>4 位 MLX 模型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="259"/>
        <source>bitsandbytes (4-bit QLoRA, 8-bit optimizers) does not train on Apple GPUs. Use LoRA on a 16-bit model with PyTorch, or MLX, which fine-tunes 4-bit models on Apple silicon:</source>
        <translation>bitsandbytes（4 位 QLoRA、8 位优化器）不支持在 Apple GPU 上训练。请用 PyTorch 在 16 位模型上做 LoRA，或者使用 MLX，它可以在 Apple 芯片上微调 4 位模型：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="273"/>
        <source>The desktop app cannot load PyTorch, so the GPU was not measured. To measure it, install PyTorch in a Python environment and run 'gpucheck scan --deep' from there.</source>
        <translation>桌面程序无法加载 PyTorch，因此没有测量 GPU。如需测量，请在一个 Python 环境中安装 PyTorch，并在该环境中运行 'gpucheck scan --deep'。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="276"/>
        <source>PyTorch is not installed, so the GPU was not measured. Install it with: pip install torch (it includes Apple's MPS backend), then run the deep scan again.</source>
        <translation>尚未安装 PyTorch，因此没有测量 GPU。安装命令：pip install torch（已包含 Apple 的 MPS 后端），然后重新运行深度扫描。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="280"/>
        <source>PyTorch with ROCm (AMD GPUs) is available on Linux only, so this AMD GPU cannot be measured on this system.</source>
        <translation>支持 ROCm（AMD GPU）的 PyTorch 只能在 Linux 上使用，因此无法在这个系统上测量这块 AMD GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="282"/>
        <source>PyTorch is not installed, so the GPU was not measured. Install the ROCm build with: {cmd}</source>
        <translation>尚未安装 PyTorch，因此没有测量 GPU。安装 ROCm 版本：{cmd}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="287"/>
        <source>PyTorch is not installed, so the GPU was not measured. Update the NVIDIA driver, then install the CUDA build with: {cmd}</source>
        <translation>尚未安装 PyTorch，因此没有测量 GPU。请先更新 NVIDIA 驱动，再安装 CUDA 版本：{cmd}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="289"/>
        <source>PyTorch is not installed, so the GPU was not measured. Install the CUDA build with: {cmd}</source>
        <translation>尚未安装 PyTorch，因此没有测量 GPU。安装 CUDA 版本：{cmd}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/software.py" line="291"/>
        <source>PyTorch is not installed, so the GPU was not measured (see pytorch.org/get-started for the build that fits this GPU).</source>
        <translation>尚未安装 PyTorch，因此没有测量 GPU（适合这块显卡的版本见 pytorch.org/get-started）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/unknown_speed.py" line="42"/>
        <source>{gpu} reading the shared system memory</source>
        <translation>只能读取共享系统内存的 {gpu}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/unsloth.py" line="47"/>
        <source>loses nothing: the same adapters trained on the same data through Unsloth's own kernels, with LoRA dropout 0 (which they need); the loss keeps no logits and the frozen layers stay 16-bit; needs pip install unsloth</source>
        <translation>没有任何损失，用同样的数据训练同样的适配器，只是改由 Unsloth 自己的内核计算，LoRA dropout 设为 0（这些内核需要）；损失不再保存 logits，冻结的层保持 16 位；需要 pip install unsloth</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/unsloth.py" line="51"/>
        <source>loses nothing: the same adapters trained on the same data through Unsloth's own kernels, with LoRA dropout 0 (which they need); the loss keeps no logits; needs pip install unsloth</source>
        <translation>没有任何损失，用同样的数据训练同样的适配器，只是改由 Unsloth 自己的内核计算，LoRA dropout 设为 0（这些内核需要）；损失不再保存 logits；需要 pip install unsloth</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/unsloth.py" line="54"/>
        <source>; each layer's checkpoint waits in CPU RAM (about {ram} more)</source>
        <translation>；每一层的检查点放在 CPU 内存里（约多占 {ram}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/unsloth.py" line="55"/>
        <source>Train with Unsloth</source>
        <translation>改用 Unsloth 训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="62"/>
        <source>with these changes: {changes}</source>
        <translation>需配合这些改动（{changes}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="64"/>
        <source>even with this card the job is slow: renting a faster GPU is quicker</source>
        <translation>换上这块显卡训练仍然很慢：租一块更快的 GPU 更省时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="107"/>
        <source>no card on the list has room for this job; this one may hold it: it needs about {need} against its {vram}, inside the estimate's error band (tight: try it; it may run out of memory)</source>
        <translation>列表中没有显存宽裕的显卡；这张可能装得下，约需 {need}，它有 {vram}，在估算的误差范围内（很紧，可以试试，但可能显存不足）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="111"/>
        <source>much cheaper than a card with room for this job, and it may hold it: it needs about {need} against its {vram}, inside the estimate's error band (tight: try it; it may run out of memory)</source>
        <translation>比显存宽裕的显卡便宜得多，也可能装得下——约需 {need}，它有 {vram}，在估算的误差范围内（很紧，可以试试，但可能显存不足）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="115"/>
        <source>cheaper, without the maker's warranty (second-hand or modified): it runs this job ({vram} of VRAM)</source>
        <translation>更便宜，但没有厂商保修（二手或魔改）；能跑这个训练任务（显存 {vram}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="118"/>
        <source>the cheapest card that runs it without changing the training method</source>
        <translation>不用改训练方式就能跑的最便宜的显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="119"/>
        <source>the cheapest card here that runs this job ({vram} of VRAM)</source>
        <translation>能跑这个训练任务的最便宜的显卡（显存 {vram}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="128"/>
        <source>a server: check that its vendor supports this card (power cables, airflow, slot)</source>
        <translation>这是服务器：请先确认厂商支持这块显卡（供电线缆、散热风道、插槽）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="131"/>
        <source>needs a {w} W power supply; yours is {r} W, so budget for a new PSU too</source>
        <translation>需要 {w} W 的电源；你的是 {r} W，所以还要预留买新电源的钱</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="134"/>
        <source>needs a {w} W power supply, more than this PC needs today (about {r} W): the power supply probably has to be replaced too</source>
        <translation>需要 {w} W 的电源，超过这台电脑现在所需（约 {r} W），电源很可能也要一起换</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="138"/>
        <source>needs a {w} W power supply (check yours)</source>
        <translation>需要 {w} W 的电源（请检查你的电源）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="140"/>
        <source>a {s}-slot card: check the case's length and slot clearance</source>
        <translation>这是一张占 {s} 个槽位的显卡，请检查机箱的长度和插槽空间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="144"/>
        <source>an x8 card: in this PCIe 3.0 system it gets half the bandwidth of x16</source>
        <translation>这是一张 x8 显卡：在这套 PCIe 3.0 系统中只有 x16 一半的带宽</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="151"/>
        <location filename="../../gpucheck/advise/upgrades.py" line="190"/>
        <source>price not re-checked ({d}), confirm before buying</source>
        <translation>价格未重新核实（{d}），购买前请确认</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="157"/>
        <source>not sold new through official channels in mainland China: second-hand or grey market only, no warranty; the price shown is the overseas one</source>
        <translation>国内官方渠道不销售新品，只能买二手或水货，没有保修；所示价格为海外价格</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="159"/>
        <source>second-hand, no warranty; the price shown is an overseas used price, not the mainland market</source>
        <translation>二手，没有保修；所示价格为海外二手价，不代表国内行情</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="224"/>
        <source>{part} costs {price}; renting {gpu} on {provider} costs {run} for this job. Buying pays off after about {h} of rented time, that is about {n} runs like this one.</source>
        <translation>{part} 售价 {price}；在 {provider} 上租用 {gpu} 跑这个训练任务要花 {run}。租用时间累计超过约 {h} 后，买下来就更划算，相当于大约 {n} 次这样的训练。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="268"/>
        <source>two cards need a motherboard with two PCIe x16 slots (x8 each is fine) spaced for them, and a power supply for both: about {w} W</source>
        <translation>两张卡需要主板上有两个间距足够的 PCIe x16 插槽（各自以 x8 运行也可以），以及能带动两张卡的电源（约 {w} W）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="271"/>
        <source>the plan offloads to CPU RAM: the PC needs about {ram} of RAM</source>
        <translation>该方案会卸载到 CPU 内存：电脑需要约 {ram} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="276"/>
        <source>2× {name}</source>
        <translation>2× {name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="279"/>
        <source>two cards sharing the job ({how}) cost less than one card that holds it alone</source>
        <translation>两张卡分担这个任务（{how}），比一张能单独装下它的卡更便宜</translation>
    </message>
    <message>
        <location filename="../../gpucheck/advise/upgrades.py" line="280"/>
        <source>data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="103"/>
        <source>PyTorch is not installed, so the GPU was not measured.</source>
        <translation>尚未安装 PyTorch，因此没有测量 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="173"/>
        <source>Measuring the GPU</source>
        <translation>正在测量 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="174"/>
        <source>Loading PyTorch</source>
        <translation>正在加载 PyTorch</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="179"/>
        <source>Deep scan cancelled; figures not measured are left empty.</source>
        <translation>深度扫描已取消；未测量的数据留空。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="181"/>
        <source>Deep scan stopped: not enough free memory for the benchmarks.</source>
        <translation>深度扫描已停止：可用内存不足，无法运行基准测试。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="183"/>
        <source>Deep scan finished</source>
        <translation>深度扫描完成</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="196"/>
        <location filename="../../gpucheck/bench/__init__.py" line="166"/>
        <source>Measuring RAM speed</source>
        <translation>正在测量内存速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="204"/>
        <source>Measuring image decoding (one core)</source>
        <translation>正在测量图像解码（单核）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="212"/>
        <source>Measuring image decoding (all cores)</source>
        <translation>正在测量图像解码（全部核心）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="220"/>
        <source>Measuring text processing</source>
        <translation>正在测量文本处理</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="225"/>
        <source>Measuring disk speed</source>
        <translation>正在测量硬盘速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="237"/>
        <source>The folder {path} is kept in RAM (tmpfs), so the disk figures are RAM speed.</source>
        <translation>文件夹 {path} 位于内存中（tmpfs），因此硬盘测试的结果其实是内存速度。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="247"/>
        <source>PyTorch is installed but failed to load ({err}); the GPU was not measured.</source>
        <translation>已安装 PyTorch，但加载失败（{err}）；没有测量 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="253"/>
        <source>PyTorch {version} is installed but cannot use the GPU (a CPU-only build, or the driver is missing). {hint}</source>
        <translation>已安装 PyTorch {version}，但无法使用 GPU（可能是仅支持 CPU 的版本，或者缺少驱动）。{hint}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="268"/>
        <source>GPU temperature could not be read ({why}).</source>
        <translation>无法读取 GPU 温度（{why}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="274"/>
        <source>The GPU benchmark failed: {err}</source>
        <translation>GPU 基准测试失败：{err}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="298"/>
        <source>The 'GPU' figures were measured on the CPU through PyTorch (no GPU used).</source>
        <translation>“GPU”数据是通过 PyTorch 在 CPU 上测得的（没有使用 GPU）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="322"/>
        <source>PyTorch did not start the GPU within the deep scan's time cap</source>
        <translation>PyTorch 没能在深度扫描的时间上限内启动 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/__init__.py" line="344"/>
        <source>Measured benchmarks unknown because they failed ({error})</source>
        <translation>实测基准数据未知，因为基准测试失败（{error}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/cpu.py" line="148"/>
        <source>Images: {w}×{h} JPEGs decoded and resized to 224×224 with Pillow; all cores = {n} threads.</source>
        <translation>图像：用 Pillow 解码 {w}×{h} 的 JPEG 并缩放到 224×224；全部核心 = {n} 个线程。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/cpu.py" line="150"/>
        <source>Images: Pillow is not installed, so {w}×{h} zlib-compressed (PNG-like) images were only decompressed; JPEG decoding is usually slower. Install Pillow (pip install pillow) for a JPEG figure. All cores = {n} threads.</source>
        <translation>图像：未安装 Pillow，因此只解压了 {w}×{h} 的 zlib 压缩图像（类似 PNG）；JPEG 解码通常更慢。安装 Pillow（pip install pillow）即可测得 JPEG 的数据。全部核心 = {n} 个线程。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="215"/>
        <source>Disk test skipped: the folder {path} does not exist.</source>
        <translation>已跳过硬盘测试：文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="217"/>
        <source>Disk test skipped: {path} is not a folder.</source>
        <translation>已跳过硬盘测试：{path} 不是文件夹。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="219"/>
        <source>Disk test skipped: no permission to write in {path}.</source>
        <translation>已跳过硬盘测试：没有在 {path} 中写入的权限。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="232"/>
        <source>Could not remove the test file {path}; please delete it.</source>
        <translation>无法删除测试文件 {path}，请手动删除。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="330"/>
        <source>the file cache was bypassed (direct reads)</source>
        <translation>已绕过文件缓存（直接读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="331"/>
        <source>the file cache was emptied before each pass (the file system refused direct reads)</source>
        <translation>每轮测试前都清空了文件缓存（文件系统不支持直接读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="332"/>
        <source>the file cache was turned off for the test file</source>
        <translation>已对测试文件关闭文件缓存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="333"/>
        <source>the file cache could NOT be bypassed here, so the figures may be RAM speed, not disk speed</source>
        <translation>此处无法绕过文件缓存，因此测得的可能是内存速度，而不是硬盘速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="347"/>
        <source>Disk test skipped: cannot read free space of {path} ({err}).</source>
        <translation>已跳过硬盘测试：无法读取 {path} 的可用空间（{err}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="352"/>
        <source>Disk test skipped: too little free space in {path}.</source>
        <translation>已跳过硬盘测试：{path} 的可用空间太少。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="362"/>
        <source>Disk test skipped: cannot create a file in {path} ({err}).</source>
        <translation>已跳过硬盘测试：无法在 {path} 中创建文件（{err}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="371"/>
        <source>Measuring disk (writing a test file)</source>
        <translation>正在测量硬盘（写入测试文件）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="381"/>
        <source>Measuring disk (sequential read)</source>
        <translation>正在测量硬盘（顺序读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="382"/>
        <source>Measuring disk (random read)</source>
        <translation>正在测量硬盘（随机读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="383"/>
        <source>Measuring disk (parallel random read)</source>
        <translation>正在测量硬盘（并行随机读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="385"/>
        <source>Disk: {size} MiB test file in {path}; {cache}.</source>
        <translation>硬盘：在 {path} 中使用 {size} MiB 的测试文件；{cache}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/disk.py" line="390"/>
        <source>Disk test in {path} failed: {err}</source>
        <translation>在 {path} 中的硬盘测试失败：{err}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="109"/>
        <source>This GPU has no bf16 support; bf16 was not measured.</source>
        <translation>这块显卡不支持 bf16，因此没有测量 bf16。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="244"/>
        <source>The GPU tests reached the time cap; the remaining GPU figures were not measured.</source>
        <translation>GPU 测试已达到时间上限；剩余的 GPU 数据没有测量。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="255"/>
        <source>Measuring GPU matrix math ({dtype})</source>
        <translation>正在测量 GPU 矩阵运算（{dtype}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="263"/>
        <source>GPU {dtype} matrix math failed: {err}</source>
        <translation>GPU {dtype} 矩阵运算测试失败：{err}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="268"/>
        <source>Measuring GPU memory bandwidth</source>
        <translation>正在测量显存带宽</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="276"/>
        <source>Measuring CPU↔GPU copies</source>
        <translation>正在测量 CPU↔GPU 数据传输</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="282"/>
        <source>CPU↔GPU copy test failed: {err}</source>
        <translation>CPU↔GPU 数据传输测试失败：{err}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="287"/>
        <source>Checking how much GPU memory can be allocated</source>
        <translation>正在检查能分配多少显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="292"/>
        <source>Only {got} of the {free} GPU memory reported free could be allocated.</source>
        <translation>报告的可用显存为 {free}，但只能分配到其中的 {got}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="299"/>
        <source>GPU memory: Metal's recommended working-set size (not test-allocated, since it is shared with the system's RAM).</source>
        <translation>显存：采用 Metal 推荐的工作集大小（未做分配测试，因为它与系统内存共用）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/gpu.py" line="303"/>
        <source>Apple silicon shares memory between CPU and GPU: there is no host↔device copy to measure.</source>
        <translation>Apple 芯片的 CPU 和 GPU 共用内存：没有主机↔设备之间的数据传输可测。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="57"/>
        <source>{n} images/s</source>
        <translation>{n} 张图像/秒</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="59"/>
        <source>{n} °C</source>
        <translation>{n} °C</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="82"/>
        <source>GPU matrix math, fp32</source>
        <translation>GPU 矩阵运算，fp32</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="83"/>
        <source>GPU matrix math, TF32</source>
        <translation>GPU 矩阵运算，TF32</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="84"/>
        <source>GPU matrix math, fp16</source>
        <translation>GPU 矩阵运算，fp16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="85"/>
        <source>GPU matrix math, bf16</source>
        <translation>GPU 矩阵运算，bf16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="86"/>
        <source>GPU memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="87"/>
        <source>CPU→GPU copy (pinned memory)</source>
        <translation>CPU→GPU 传输（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="88"/>
        <source>CPU→GPU copy (ordinary memory)</source>
        <translation>CPU→GPU 传输（普通内存）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="89"/>
        <source>GPU→CPU copy (pinned memory)</source>
        <translation>GPU→CPU 传输（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="90"/>
        <source>GPU memory a job could allocate</source>
        <translation>训练任务能分配到的显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="91"/>
        <source>GPU temperature before the test</source>
        <translation>测试前的 GPU 温度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="92"/>
        <source>GPU temperature after the test</source>
        <translation>测试后的 GPU 温度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="95"/>
        <source>Image decoding, one core</source>
        <translation>图像解码，单核</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="96"/>
        <source>Image decoding, all cores</source>
        <translation>图像解码，全部核心</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="97"/>
        <source>Text processing, one core</source>
        <translation>文本处理，单核</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="98"/>
        <source>Disk sequential read</source>
        <translation>硬盘顺序读取</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="99"/>
        <source>Disk random read (128 KiB pieces, 8 readers)</source>
        <translation>硬盘随机读取（128 KiB 块，8 个并发读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="100"/>
        <source>Disk random read (4 KiB, one at a time)</source>
        <translation>硬盘随机读取（4 KiB，逐个读取）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="101"/>
        <source>Disk sequential write</source>
        <translation>硬盘顺序写入</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="102"/>
        <source>RAM copy, one thread</source>
        <translation>内存复制，单线程</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="103"/>
        <source>RAM copy, all threads</source>
        <translation>内存复制，全部线程</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="119"/>
        <location filename="../../gpucheck/bench/present.py" line="131"/>
        <source>{value} (measured)</source>
        <translation>{value}（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="121"/>
        <source>{value} (measured; {pct}% of the data sheet's {spec})</source>
        <translation>{value}（实测；为规格表中 {spec} 的 {pct}%）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="126"/>
        <source>{value} (from specs)</source>
        <translation>{value}（来自规格）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="145"/>
        <source>Measured by the deep scan ({s} s):</source>
        <translation>深度扫描实测结果（用时 {s} 秒）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="147"/>
        <source>Measured by the deep scan (cancelled after {s} s):</source>
        <translation>深度扫描实测结果（{s} 秒后取消）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/present.py" line="152"/>
        <source>GPU slow-down reasons after the test: {reasons}</source>
        <translation>测试后 GPU 的降频原因：{reasons}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/ram.py" line="114"/>
        <source>RAM copy: one thread copying {size} MiB buffers, median of {n} copies.</source>
        <translation>内存复制：单线程复制 {size} MiB 的缓冲区，取 {n} 次复制的中位数。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/bench/ram.py" line="122"/>
        <source>RAM copy, all threads: {threads} threads each copying its share of the buffers, best of {n} copies.</source>
        <translation>内存复制（全部线程）：{threads} 个线程各复制缓冲区的一部分，取 {n} 次复制中最快的一次。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="291"/>
        <location filename="../../gpucheck/commands.py" line="95"/>
        <source>--gpu: expected a GPU name such as '4090' or 'a100 80gb'</source>
        <translation>--gpu：需要一个 GPU 名称，例如“4090”或“a100 80gb”</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="309"/>
        <source>unknown GPU '{name}': no desktop card has that name, a laptop GPU does</source>
        <translation>无法识别的 GPU '{name}'：没有这个名字的台式机显卡，只有同名的笔记本 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="312"/>
        <source>--gpu '{name}' fits several GPUs; name one (with its memory size, e.g. 'RTX 3060 12GB'):</source>
        <translation>--gpu '{name}' 对应多款显卡；请指定一款（带上显存大小，例如 'RTX 3060 12GB'）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="321"/>
        <location filename="../../gpucheck/catalog.py" line="293"/>
        <source>unknown GPU '{name}' (see 'gpucheck gpus' for the list)</source>
        <translation>未知的显卡“{name}”（完整列表见 “gpucheck gpus”）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="375"/>
        <location filename="../../gpucheck/machine.py" line="473"/>
        <location filename="../../gpucheck/tomldata.py" line="136"/>
        <source>{where}: unknown key '{key}' (expected one of: {names})</source>
        <translation>{where}：未知的键“{key}”（应为以下之一：{names}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="388"/>
        <source>{where}: keys 'model.step_tensor_elements' and 'model.step_tensor_counts': expected lists of the same length</source>
        <translation>{where}：键“model.step_tensor_elements”和“model.step_tensor_counts”应为长度相同的列表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/catalog.py" line="461"/>
        <source>unknown workload '{name}' (a built-in id, a workload .toml or a config.json; see 'gpucheck workloads')</source>
        <translation>未知的训练任务“{name}”（应为内置任务 ID、训练任务 .toml 文件或 config.json；见 “gpucheck workloads”）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="39"/>
        <source>usage: </source>
        <translation>用法：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="39"/>
        <source>positional arguments</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="39"/>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="39"/>
        <source>show this help message and exit</source>
        <translation>显示此帮助信息并退出</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="40"/>
        <location filename="../../gpucheck/cli.py" line="146"/>
        <source>show program's version number and exit</source>
        <translation>显示程序版本号并退出</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="40"/>
        <source>unrecognized arguments: %s</source>
        <translation>无法识别的参数：%s</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="41"/>
        <source>invalid choice: %(value)r (choose from %(choices)s)</source>
        <translation>无效的选项：%(value)r（可选：%(choices)s）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="41"/>
        <source>argument %(argument_name)s: %(message)s</source>
        <translation>参数 %(argument_name)s：%(message)s</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="42"/>
        <source>the following arguments are required: %s</source>
        <translation>缺少必需的参数：%s</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="42"/>
        <source>invalid %(type)s value: %(value)r</source>
        <translation>无效的 %(type)s 值：%(value)r</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="43"/>
        <source>expected one argument</source>
        <translation>需要一个参数值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="43"/>
        <source>ambiguous option: %(option)s could match %(matches)s</source>
        <translation>有歧义的选项：%(option)s 可能是 %(matches)s</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="44"/>
        <source>not allowed with argument %s</source>
        <translation>不能与参数 %s 同时使用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="44"/>
        <source>one of the arguments %s is required</source>
        <translation>必须提供参数 %s 之一</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="57"/>
        <source>{message} (see '{command}')</source>
        <translation>{message}（参见 '{command}'）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="74"/>
        <source>unknown language {value!r} (use en or zh_CN; zh and zh-CN work too)</source>
        <translation>未知的语言 {value!r}（请用 en 或 zh_CN；也可写 zh、zh-CN）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="80"/>
        <source>machine-readable JSON on stdout</source>
        <translation>在标准输出打印便于程序读取的 JSON</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="81"/>
        <source>language (default: the system's)</source>
        <translation>语言（默认跟随系统）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="86"/>
        <source>where you are, for cloud and shop advice: cn (mainland China) or global (default: from the time zone and locale)</source>
        <translation>所在地区，决定推荐哪些云服务和按哪里的价格购买：cn（中国大陆）或 global（其他地区；默认根据时区和区域设置判断）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="91"/>
        <location filename="../../gpucheck/cli.py" line="171"/>
        <source>a saved scan or JSON report instead of this PC</source>
        <translation>使用已保存的扫描或 JSON 报告，而不是本机</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="92"/>
        <source>a catalog GPU instead of this PC's ('4090', 'a100 80gb'), or 'cpu' for the processor only</source>
        <translation>使用显卡列表中的 GPU，而不是本机的（如 '4090'、'a100 80gb'）；用 'cpu' 表示只用处理器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="93"/>
        <source>number of GPUs (default: as scanned, or 1)</source>
        <translation>GPU 数量（默认：按扫描结果，或 1）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="95"/>
        <source>with --gpu: the machines the GPUs sit in, joined by their network (default: as few as hold them, 8 GPUs each)</source>
        <translation>与 --gpu 一起用：这些 GPU 分布在几台机器上，机器之间通过网络相连（默认：能装下它们的最少台数，每台 8 块）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="100"/>
        <source>training settings (override the workload's)</source>
        <translation>训练设置（覆盖训练任务自带的设置）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="103"/>
        <source>bf16 = mixed precision (fp32 master weights); bf16-pure = weights, gradients and AdamW state all in bf16; fp16-pure = the same in fp16 (model.half())</source>
        <translation>bf16 = 混合精度（FP32 主权重）；bf16-pure = 权重、梯度和 AdamW 状态全部为 bf16；fp16-pure = 同样的做法但用 fp16（model.half()）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="106"/>
        <source>micro-batch per GPU</source>
        <translation>每块 GPU 的微批次大小</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="108"/>
        <source>gradient accumulation: micro-batches per optimizer step (the Trainer's gradient_accumulation_steps; effective batch = micro-batch × K × GPUs)</source>
        <translation>梯度累积：每次优化器更新前累加的微批次数（即 Trainer 的 gradient_accumulation_steps；有效批大小 = 微批次 × K × GPU 数）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="115"/>
        <source>the layers LoRA adapts: q and v projections, all attention projections, the MLP, or every linear layer</source>
        <translation>LoRA 作用的层：q 和 v 投影、所有注意力投影、MLP，或所有线性层</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="118"/>
        <source>dropout on each LoRA adapter's input (0.05 by default); above 0 every adapted layer keeps a copy of its input in VRAM, 0 keeps none</source>
        <translation>每个 LoRA 适配器输入上的 dropout（默认 0.05）；大于 0 时每个被适配的层都会在显存中多存一份输入，为 0 则不存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="121"/>
        <source>several GPUs: DeepSpeed ZeRO stage (3 = FSDP full shard)</source>
        <translation>多块 GPU：DeepSpeed ZeRO 阶段（3 = FSDP 完全分片）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="123"/>
        <source>ZeRO-Offload: fp32 master weights, gradients and optimizer state in CPU RAM</source>
        <translation>ZeRO-Offload：FP32 主权重、梯度和优化器状态放在 CPU 内存中</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="124"/>
        <source>training samples in the data set</source>
        <translation>数据集中的训练样本数</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="126"/>
        <source>token budget of the whole run (pre-training)</source>
        <translation>整个训练的 token 预算（预训练）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="128"/>
        <source>mean tokens per sample in your data set (at most --seq-len): the time follows it, the memory the longest</source>
        <translation>数据集中每个样本的平均 token 数（不超过 --seq-len）：训练时间按平均长度算，显存按最长的样本算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="131"/>
        <source>software stack: eager (a plain PyTorch loop or the Hugging Face Trainer), fused (compiled / fused kernels), handtuned (llm.c-style CUDA), unsloth (Unsloth: LoRA / QLoRA with its kernels, activation checkpoints in CPU RAM)</source>
        <translation>软件栈：eager（普通 PyTorch 训练循环或 Hugging Face Trainer）、fused（编译 / 融合算子）、handtuned（llm.c 式手写 CUDA）、unsloth（Unsloth：用它的内核做 LoRA / QLoRA，激活检查点放在 CPU 内存里）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="135"/>
        <source>pack short samples into full-length rows</source>
        <translation>把短样本拼接成满长度的序列（packing）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="143"/>
        <source>Can my PC train this? Scan the hardware, estimate training jobs, get advice.</source>
        <translation>我的电脑能训练这个吗？扫描硬件、估算训练任务、获取建议。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="144"/>
        <source>Run 'gpucheck' with no command to open the desktop app.</source>
        <translation>不带命令运行 'gpucheck' 即可打开桌面程序。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="149"/>
        <source>scan this PC (GPU, CPU, RAM, disks, power, software)</source>
        <translation>扫描本机（GPU、CPU、内存、硬盘、电源、软件）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="151"/>
        <source>write the scan as JSON to FILE</source>
        <translation>把扫描结果以 JSON 格式写入 FILE</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="152"/>
        <source>also run short measured benchmarks (~30 s)</source>
        <translation>同时运行简短的实测基准测试（约 30 秒）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="153"/>
        <source>folder whose disk the deep scan measures</source>
        <translation>深度扫描要测量的硬盘所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="154"/>
        <source>keep GPU UUIDs and the host name in the output</source>
        <translation>在输出中保留 GPU UUID 和主机名</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="156"/>
        <source>verdict for each training job on this PC (all built-ins by default)</source>
        <translation>本机上每个训练任务的结论（默认检查全部内置任务）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="160"/>
        <source>built-in id, workload .toml or config.json</source>
        <translation>内置任务 ID、训练任务 .toml 文件或 config.json</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="162"/>
        <source>VRAM, time, RAM and disk for one job, with advice</source>
        <translation>单个训练任务所需的显存、时间、内存和硬盘空间，并给出建议</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="167"/>
        <location filename="../../gpucheck/trial/command.py" line="52"/>
        <source>built-in id, workload .toml or Hugging Face config.json</source>
        <translation>内置任务 ID、训练任务 .toml 文件或 Hugging Face 的 config.json</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="169"/>
        <source>write a PDF, HTML or JSON report</source>
        <translation>生成 PDF、HTML 或 JSON 报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="170"/>
        <source>OUT.pdf, OUT.html or OUT.json</source>
        <translation>OUT.pdf、OUT.html 或 OUT.json</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="172"/>
        <source>language of the report</source>
        <translation>报告的语言</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="174"/>
        <source>jobs to detail (default: all)</source>
        <translation>需要详细说明的训练任务（默认：全部）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="176"/>
        <source>include host name and GPU UUIDs (left out by default)</source>
        <translation>包含主机名和 GPU UUID（默认不包含）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="177"/>
        <source>PDF paper size (default: by locale)</source>
        <translation>PDF 纸张大小（默认：按地区设置）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="179"/>
        <source>a saved `gpucheck trial --json` result: its job's figures are shown as measured (repeat for more jobs)</source>
        <translation>保存的 `gpucheck trial --json` 结果：该任务的数字按实测显示（多个任务可重复此选项）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="182"/>
        <source>run real training steps of one job in this PC's PyTorch and measure them</source>
        <translation>在本机的 PyTorch 中真实运行一个任务的训练步并测量</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="189"/>
        <source>measure this PC with short real training steps; later estimates use it</source>
        <translation>用几步真实训练实测本机；之后的估算都会用上实测结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="194"/>
        <source>the GPU catalog</source>
        <translation>显卡列表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="198"/>
        <source>the built-in training jobs</source>
        <translation>内置的训练任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="253"/>
        <source>did you mean: {names}?</source>
        <translation>你是不是想找：{names}？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="276"/>
        <source>internal error: {error}. Details were written to {path}</source>
        <translation>内部错误：{error}。详细信息已写入 {path}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="294"/>
        <source>cannot write the output ({reason})</source>
        <translation>无法写出输出（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="296"/>
        <source>{path}: file name too long</source>
        <translation>{path}：文件名太长</translation>
    </message>
    <message>
        <location filename="../../gpucheck/cli.py" line="297"/>
        <location filename="../../gpucheck/fileio.py" line="44"/>
        <location filename="../../gpucheck/fileio.py" line="68"/>
        <source>{path}: cannot write ({reason})</source>
        <translation>{path}：无法写入（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="58"/>
        <source>CPU arithmetic</source>
        <translation>CPU 算力</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="60"/>
        <source>GPU arithmetic</source>
        <translation>GPU 算力</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="61"/>
        <source>element-wise layers (memory traffic)</source>
        <translation>逐元素运算层（显存读写）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="62"/>
        <source>per-step overhead (small steps)</source>
        <translation>每步固定开销（单步计算量太小）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="63"/>
        <source>GPU-to-GPU communication</source>
        <translation>GPU 之间的通信</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="64"/>
        <source>CPU offload (PCIe copies and the CPU's optimizer step)</source>
        <translation>CPU 卸载（PCIe 拷贝和 CPU 上的优化器步骤）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="65"/>
        <source>the CPU preparing each batch (audio features)</source>
        <translation>CPU 准备每个批次（音频特征）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="93"/>
        <source>--machines applies only with --gpu NAME (a catalog GPU in several machines)</source>
        <translation>--machines 只能与 --gpu 名称 一起使用（目录中的 GPU 分布在多台机器上）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="102"/>
        <source>--gpus does not apply to --gpu cpu (training on the processor uses no GPU)</source>
        <translation>--gpus 不能和 --gpu cpu 一起用（在处理器上训练不使用 GPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="120"/>
        <source>--gpus: {gpu} is a GPU built into the chip, and a Mac has only one; leave out --gpus</source>
        <translation>--gpus：{gpu} 是集成在芯片里的 GPU，一台 Mac 只有一块；请去掉 --gpus</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="127"/>
        <source>Target: {label} — CPU only</source>
        <translation>对比对象：{label} — 仅 CPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="130"/>
        <source>Target: {n}× {gpu} in {m} machines joined by a network, {vram} usable per GPU</source>
        <translation>对比对象：{n}× {gpu}，分布在 {m} 台通过网络相连的机器上，每块 GPU 可用 {vram}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="133"/>
        <source>Target: {n}× {gpu}, {vram} usable per GPU</source>
        <translation>对比对象：{n}× {gpu}，每块 GPU 可用 {vram}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="134"/>
        <source>Target: {gpu}, {vram} usable</source>
        <translation>对比对象：{gpu}，可用 {vram}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="147"/>
        <source>Memory "A → B": as configured → with the advised changes (which keep what is trained). Time: with the advised changes.</source>
        <translation>内存或显存“A → B”：按当前设置 → 采用建议的调整后（不改变训练内容）。时间按调整后的设置计算。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="154"/>
        <source>RAM need / total</source>
        <translation>内存 需要/总量</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="155"/>
        <source>VRAM need / usable</source>
        <translation>显存 需要/可用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="191"/>
        <source>{label}: times use the speeds measured here</source>
        <translation>{label}：时间按本机实测的速度计算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="193"/>
        <location filename="../../gpucheck/commands.py" line="434"/>
        <location filename="../../gpucheck/commands.py" line="455"/>
        <source>Workload</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="193"/>
        <location filename="../../gpucheck/commands.py" line="455"/>
        <location filename="../../gpucheck/report/job_section.py" line="274"/>
        <location filename="../../gpucheck/report/job_section.py" line="157"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="405"/>
        <location filename="../../gpucheck/ui/pages/jobs_ladder.py" line="39"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="193"/>
        <location filename="../../gpucheck/commands.py" line="455"/>
        <location filename="../../gpucheck/report/job_section.py" line="262"/>
        <location filename="../../gpucheck/report/option_points.py" line="110"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="407"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="172"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="202"/>
        <source>Details: gpucheck estimate WORKLOAD (add --gpu NAME to try another GPU)</source>
        <translation>详情：gpucheck estimate WORKLOAD（加上 --gpu NAME 可换一块 GPU 试试）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="236"/>
        <source>Times assume {stack} unless noted; each is gpucheck's estimate, and 'estimate' gives its likely range (--stack changes it).</source>
        <translation>时间默认按 {stack} 估算（另有注明的除外）；每个时间都是 gpucheck 的估算值，'estimate' 会给出它的可能范围（用 --stack 可更改）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="245"/>
        <source>Peak VRAM per GPU (needed, with the HIP context)</source>
        <translation>每块 GPU 需要的显存峰值（含 HIP 上下文）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="247"/>
        <source>Peak VRAM per GPU (needed, with the GPU driver's context)</source>
        <translation>每块 GPU 需要的显存峰值（含 GPU 驱动的上下文）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="249"/>
        <source>Peak GPU memory (needed)</source>
        <translation>需要的 GPU 内存峰值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="250"/>
        <source>Peak VRAM per GPU (needed, with the CUDA context)</source>
        <translation>每块 GPU 需要的显存峰值（含 CUDA 上下文）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="262"/>
        <source>Verdict: {verdict}</source>
        <translation>结论：{verdict}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="268"/>
        <source>As configured: {verdict} (the figures below are for {p}, which this CPU trains instead of {asked})</source>
        <translation>按当前设置：{verdict}（下面的数字是 {p} 的，这颗 CPU 用它代替 {asked} 训练）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="270"/>
        <source>As configured: {verdict} (the figures below are for {p}, which this GPU trains instead of {asked})</source>
        <translation>按当前设置：{verdict}（下面的数字是 {p} 的，这块显卡用它代替 {asked} 训练）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="274"/>
        <source>As configured: {verdict} (the figures below are for the settings as configured)</source>
        <translation>按当前设置：{verdict}（下面的数字对应当前设置）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="280"/>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="281"/>
        <location filename="../../gpucheck/report/figures.py" line="445"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="282"/>
        <location filename="../../gpucheck/report/build.py" line="147"/>
        <location filename="../../gpucheck/report/figures.py" line="446"/>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="283"/>
        <location filename="../../gpucheck/report/figures.py" line="447"/>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="284"/>
        <location filename="../../gpucheck/report/figures.py" line="448"/>
        <source>Framework overhead</source>
        <translation>框架额外开销</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="286"/>
        <source>  of which PyTorch allocates</source>
        <translation>  其中 PyTorch 分配的</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="287"/>
        <source>  of which PyTorch allocates (max_memory_allocated)</source>
        <translation>  其中 PyTorch 分配的（max_memory_allocated）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="290"/>
        <source>nvidia-smi may show, with cached blocks</source>
        <translation>nvidia-smi 可能显示（含缓存的显存块）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="291"/>
        <source>Usable by the GPU (of the unified memory)</source>
        <translation>GPU 可用（统一内存中的部分）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="291"/>
        <source>Usable VRAM per GPU</source>
        <translation>每块 GPU 的可用显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="293"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="293"/>
        <source>GPU memory use</source>
        <translation>GPU 内存占用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="293"/>
        <source>VRAM use</source>
        <translation>显存占用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="300"/>
        <location filename="../../gpucheck/commands.py" line="313"/>
        <source>{before} → {after} with the advised changes</source>
        <translation>{before} → 调整后 {after}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="302"/>
        <source>System RAM (incl. the GPU's share of unified memory)</source>
        <translation>系统内存（含统一内存中 GPU 使用的部分）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="302"/>
        <source>System RAM</source>
        <translation>系统内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="304"/>
        <source>Disk space</source>
        <translation>硬盘空间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="305"/>
        <location filename="../../gpucheck/report/job_section.py" line="298"/>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="305"/>
        <source>{n} samples/s</source>
        <translation>{n} 样本/秒</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="305"/>
        <location filename="../../gpucheck/i18n.py" line="440"/>
        <location filename="../../gpucheck/i18n.py" line="446"/>
        <location filename="../../gpucheck/i18n.py" line="458"/>
        <location filename="../../gpucheck/i18n.py" line="482"/>
        <location filename="../../gpucheck/i18n.py" line="501"/>
        <location filename="../../gpucheck/i18n.py" line="567"/>
        <location filename="../../gpucheck/i18n.py" line="583"/>
        <location filename="../../gpucheck/machine_text.py" line="16"/>
        <location filename="../../gpucheck/machine_text.py" line="104"/>
        <location filename="../../gpucheck/machine_text.py" line="31"/>
        <location filename="../../gpucheck/machine_text.py" line="87"/>
        <location filename="../../gpucheck/machine_text.py" line="113"/>
        <location filename="../../gpucheck/probe/assemble.py" line="152"/>
        <location filename="../../gpucheck/report/build.py" line="100"/>
        <location filename="../../gpucheck/report/job_section.py" line="94"/>
        <location filename="../../gpucheck/report/job_section.py" line="190"/>
        <location filename="../../gpucheck/report/machine_section.py" line="48"/>
        <location filename="../../gpucheck/report/machine_section.py" line="74"/>
        <location filename="../../gpucheck/report/machine_section.py" line="148"/>
        <location filename="../../gpucheck/report/machine_section.py" line="150"/>
        <location filename="../../gpucheck/report/machine_section.py" line="82"/>
        <location filename="../../gpucheck/report/machine_section.py" line="135"/>
        <location filename="../../gpucheck/report/machine_section.py" line="129"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="73"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="308"/>
        <location filename="../../gpucheck/report/job_section.py" line="294"/>
        <source>Tokens per second</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="312"/>
        <location filename="../../gpucheck/report/job_section.py" line="292"/>
        <source>Software stack</source>
        <translation>软件栈</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="319"/>
        <source>Speed limited by</source>
        <translation>速度瓶颈</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="320"/>
        <source>Need</source>
        <translation>需要</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="320"/>
        <location filename="../../gpucheck/report/job_section.py" line="314"/>
        <source>Estimate</source>
        <translation>估算值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="322"/>
        <source>Speed uses figures measured on this machine by the deep scan.</source>
        <translation>速度采用深度扫描在这台电脑上实测的数据。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="324"/>
        <source>{label}: the speed uses what real steps measured here (the model alone: {s} s per step).</source>
        <translation>{label}：速度采用本机真实训练步的实测结果（仅按模型估算为每步 {s} 秒）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="327"/>
        <source>Assumptions: {items}</source>
        <translation>假设：{items}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="329"/>
        <location filename="../../gpucheck/report/figures.py" line="222"/>
        <source>As configured (before the advised changes):</source>
        <translation>按当前设置（调整前）：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="344"/>
        <location filename="../../gpucheck/report/job_section.py" line="263"/>
        <source>Whole run</source>
        <translation>整个训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="344"/>
        <source>Whole run (if it fitted)</source>
        <translation>整个训练（假如装得下）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="346"/>
        <source>Likely range (P10–P90)</source>
        <translation>可能范围（P10–P90）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="348"/>
        <source>Whole run (with this PC's CPU and disk limits)</source>
        <translation>整个训练（计入本机 CPU 和硬盘的限制）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="349"/>
        <source>Whole run with the advised changes and this PC's CPU and disk limits</source>
        <translation>调整后的整个训练（计入本机 CPU 和硬盘的限制）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="350"/>
        <source>Whole run with the advised changes</source>
        <translation>调整后的整个训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="352"/>
        <source>  GPU alone, as configured, if data loading kept up</source>
        <translation>  按当前设置仅计 GPU（假如数据加载跟得上）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="353"/>
        <source>  as configured</source>
        <translation>  按当前设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="355"/>
        <source>  as configured (if it fitted)</source>
        <translation>  按当前设置（假如装得下）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="356"/>
        <source>  likely range of that time (P10–P90)</source>
        <translation>  该时间的可能范围（P10–P90）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="409"/>
        <location filename="../../gpucheck/report/build.py" line="128"/>
        <location filename="../../gpucheck/report/machine_section.py" line="29"/>
        <location filename="../../gpucheck/report/machine_section.py" line="142"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="409"/>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="409"/>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="409"/>
        <source>FP32 TFLOPS</source>
        <translation>FP32 TFLOPS</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="409"/>
        <source>FP16/BF16 tensor</source>
        <translation>FP16/BF16 张量算力</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="409"/>
        <location filename="../../gpucheck/report/job_section.py" line="240"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="414"/>
        <source>Tensor figures are dense, with FP32 accumulate (what mixed-precision training uses). Sources: resources/gpus.toml.</source>
        <translation>张量算力为稠密运算、FP32 累加时的数值（即混合精度训练所用的方式）。来源：resources/gpus.toml。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="434"/>
        <location filename="../../gpucheck/report/job_section.py" line="157"/>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="434"/>
        <source>What it is</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="458"/>
        <source>No display found, so the desktop app did not open. Run 'gpucheck --help' for the commands.</source>
        <translation>没有找到显示器，因此没有打开桌面程序。运行 'gpucheck --help' 查看可用命令。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="469"/>
        <source>is a folder, not a trial result</source>
        <translation>这是一个文件夹，不是试运行结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="470"/>
        <source>not a text file (expected JSON from 'gpucheck trial --json')</source>
        <translation>不是文本文件（应为“gpucheck trial --json”输出的 JSON）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="474"/>
        <source>{path}: not a trial result (save one with: gpucheck trial WORKLOAD --json &gt; FILE)</source>
        <translation>{path}：不是试运行结果（可用 gpucheck trial WORKLOAD --json &gt; FILE 保存一个）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands.py" line="497"/>
        <source>Wrote the report to {path}</source>
        <translation>报告已写入 {path}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="29"/>
        <source>convolutional network</source>
        <translation>卷积网络</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="29"/>
        <source>transformer layers</source>
        <translation>Transformer 层</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="30"/>
        <source>U-Net block</source>
        <translation>U-Net 模块</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="31"/>
        <source>convolutional networks</source>
        <translation>卷积网络</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="31"/>
        <source>transformers</source>
        <translation>Transformer 模型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="32"/>
        <source>U-Nets (diffusion)</source>
        <translation>U-Net（扩散模型）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="32"/>
        <source>MLPs</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="36"/>
        <location filename="../../gpucheck/trial/command.py" line="53"/>
        <source>the Python (with PyTorch) to run it in (default: found)</source>
        <translation>用来运行的 Python（需装有 PyTorch；默认自动查找）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="38"/>
        <source>time for the timed steps of all three parts together, at most 90 (default: 45)</source>
        <translation>三部分计时训练步的总时长，最多 90 秒（默认 45 秒）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="40"/>
        <location filename="../../gpucheck/trial/command.py" line="59"/>
        <source>where to run it (default: the GPU PyTorch can use, else the CPU)</source>
        <translation>在哪里运行（默认：PyTorch 能用的显卡，否则用 CPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="41"/>
        <source>a saved scan of this PC (default: scan it now)</source>
        <translation>本机已保存的扫描结果（默认现在扫描）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="47"/>
        <location filename="../../gpucheck/trial/command.py" line="68"/>
        <source>step {n} ({s} s of {max} s)</source>
        <translation>第 {n} 步（{s} 秒 / {max} 秒）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="50"/>
        <source>Calibrating</source>
        <translation>正在校准</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="61"/>
        <location filename="../../gpucheck/trial/command.py" line="84"/>
        <source>Python: {path}</source>
        <translation>Python 路径：{path}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="65"/>
        <source>{what} on {device}: {measured} s per step measured, {estimated} s estimated (×{ratio})</source>
        <translation>{what}（{device}）：实测每步 {measured} 秒，估算 {estimated} 秒（实测为估算的 {ratio} 倍）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="69"/>
        <source>{what}: not measured ({why})</source>
        <translation>{what}：未能实测（{why}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="72"/>
        <source>From now on, estimates on this PC ({device}) use these measured speeds:</source>
        <translation>今后本机（{device}）上的估算都会使用以下实测速度：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="74"/>
        <source>{family}: steps take ×{factor} the model's time</source>
        <translation>{family}：每步耗时为模型估算的 {factor} 倍</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="77"/>
        <source>other kinds of jobs, from how much of their step is each:</source>
        <translation>其他类型的任务，按每一步中两类计算各占多少估算：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="78"/>
        <source>matrix math (convolutions, matrix multiplies): ×{factor} the model's time</source>
        <translation>矩阵运算（卷积、矩阵乘法）：模型时间的 ×{factor}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="80"/>
        <source>memory-bound work (element-wise, normalization, optimizer): ×{factor} the model's time</source>
        <translation>受内存带宽限制的运算（逐元素运算、归一化、优化器）：模型时间的 ×{factor}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="83"/>
        <source>other jobs: ×{factor} (the kinds measured, together)</source>
        <translation>其他任务：耗时为模型估算的 {factor} 倍（按已测的几类任务合计）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="86"/>
        <source>the {device}'s own speed: not measured (the processor set every step: small steps on a fast GPU); the device's work keeps the model's time</source>
        <translation>{device} 自身的速度：未测到（每一步都由处理器决定：快速 GPU 上的小步）；设备上的计算仍按模型估算的耗时</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="88"/>
        <source>the processor's part of each step (launching the work): ×{factor} the model's time</source>
        <translation>每一步中处理器的部分（下发计算）：耗时为模型估算的 {factor} 倍</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="92"/>
        <source>This PC was busy while it was measured (the steps had about {n} % of the processor): the parts ran on one core and the calibration uses the processor time their steps took, not the clock time; for the best figures close other programs and run gpucheck calibrate again</source>
        <translation>实测时本机正忙（训练步只用到约 {n}% 的处理器）：各部分改在单个核心上运行，校准采用其训练步实际占用的处理器时间，而不是挂钟时间；要得到最准确的结果，请关闭其他程序后重新运行 gpucheck calibrate</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="97"/>
        <location filename="../../gpucheck/ui/pages/report.py" line="225"/>
        <location filename="../../gpucheck/ui/pages/report.py" line="117"/>
        <source>Saved to {path}</source>
        <translation>已保存到 {path}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="105"/>
        <source>--max-seconds must be above 0 and at most {n}</source>
        <translation>--max-seconds 必须大于 0 且不超过 {n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/commands_calibrate.py" line="125"/>
        <location filename="../../gpucheck/trial/__init__.py" line="221"/>
        <source>{module} is not installed in {python}; add it with: {cmd}</source>
        <translation>{python} 中没有安装 {module}，安装命令为 {cmd}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="97"/>
        <source>AMD GPUs</source>
        <translation>AMD 显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="97"/>
        <source>Apple GPUs</source>
        <translation>Apple 显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="97"/>
        <source>Intel GPUs</source>
        <translation>Intel 显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="97"/>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="98"/>
        <source>laptop GPUs</source>
        <translation>笔记本显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="99"/>
        <source>NVIDIA GPUs</source>
        <translation>NVIDIA 显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="99"/>
        <source>image jobs</source>
        <translation>图像任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="99"/>
        <source>text-encoder jobs</source>
        <translation>文本编码器任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="100"/>
        <source>diffusion jobs</source>
        <translation>扩散模型任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="100"/>
        <source>language-model jobs</source>
        <translation>语言模型任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="100"/>
        <source>speech jobs</source>
        <translation>语音任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/bands.py" line="109"/>
        <source>Time range not yet checked against published training runs on {what}: it is shown wide</source>
        <translation>时间范围尚未对照{what}上已公开的训练实测核对，因此给得较宽</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/calibration.py" line="395"/>
        <location filename="../../gpucheck/trial/calibrate.py" line="392"/>
        <source>Calibrated on this PC, {date}</source>
        <translation>已在本机校准（{date}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="54"/>
        <source>Training with PyTorch is not supported on this GPU's driver stack ({backend}); it needs CUDA, ROCm, Apple MPS or Intel XPU</source>
        <translation>这块显卡的驱动栈（{backend}）不支持用 PyTorch 训练；需要 CUDA、ROCm、Apple MPS 或 Intel XPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="58"/>
        <source>QLoRA needs bitsandbytes 4-bit kernels, which are released for NVIDIA CUDA, AMD ROCm and Intel XPU; on this backend they are not available for training</source>
        <translation>QLoRA 需要 bitsandbytes 的 4 位内核，目前发布了 NVIDIA CUDA、AMD ROCm 和 Intel XPU 版本；在这个后端上无法用于训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="62"/>
        <source>8-bit AdamW needs bitsandbytes, which is released for NVIDIA CUDA, AMD ROCm and Intel XPU; on this backend it is not available</source>
        <translation>8 位 AdamW 需要 bitsandbytes，目前发布了 NVIDIA CUDA、AMD ROCm 和 Intel XPU 版本；这个后端上不可用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="98"/>
        <source>FP32: the default on {gpu}, where FP16 gives NaN losses and black images (pytorch/pytorch#58123)</source>
        <translation>默认 FP32，因为 {gpu} 这类显卡用 FP16 训练会出现 NaN 损失、生成黑图（pytorch/pytorch#58123）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="102"/>
        <source>FP16 mixed precision: the default on {gpu}, which has no BF16</source>
        <translation>FP16 混合精度（{gpu} 不支持 BF16，默认使用 FP16）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="111"/>
        <source>{gpu} has no bf16 support: the estimate uses fp16 mixed precision</source>
        <translation>{gpu} 不支持 bf16：估算改用 fp16 混合精度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="126"/>
        <source>CPUs train in bf16 or fp32, not fp16: the estimate uses bf16</source>
        <translation>CPU 训练用 bf16 或 fp32，不用 fp16：估算改用 bf16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="130"/>
        <source>This CPU has no native BF16: PyTorch emulates it, slower than FP32</source>
        <translation>这颗 CPU 不原生支持 BF16：PyTorch 只能模拟，比 FP32 还慢</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="132"/>
        <source>FP32: the default on this CPU, which has no native BF16 (AVX512_BF16, AMX or Arm BF16)</source>
        <translation>默认 FP32，因为这颗 CPU 不原生支持 BF16（AVX512_BF16、AMX 或 Arm BF16）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="164"/>
        <source>Needs about {need} of GPU memory per GPU; {have} is usable</source>
        <translation>每块 GPU 大约需要 {need} 显存；可用 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="167"/>
        <source>The GPU's memory size is unknown, so whether the job fits is not checked</source>
        <translation>GPU 的显存大小未知，因此没有检查训练任务能否装下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="169"/>
        <source>Needs about {need} of system RAM; this PC has {have}</source>
        <translation>大约需要 {need} 系统内存；本机有 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="172"/>
        <source>Needs about {need} of system RAM; {free} of {have} was free at the scan: close other programs first</source>
        <translation>需要约 {need} 系统内存；扫描时 {have} 中只有 {free} 空闲，请先关闭其他程序</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="275"/>
        <source>The samples differ in length, so PyTorch keeps the memory of earlier, shorter steps cached: nvidia-smi may show up to {shown} per GPU while this runs. PyTorch frees that cache before it would run out of memory, so the verdict counts what the job needs ({need}).</source>
        <translation>样本长短不一，PyTorch 会把之前较短步骤用过的显存留作缓存：训练时 nvidia-smi 可能显示每块 GPU 占用高达 {shown}。PyTorch 在显存不够之前会先释放这些缓存，所以结论只按任务实际需要的显存（{need}）来算。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="283"/>
        <source>On Linux, starting the training with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True lets PyTorch reuse that cached memory for the longer steps instead.</source>
        <translation>在 Linux 上，用 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True 启动训练，PyTorch 就能把这些缓存的显存重新用于更长的训练步。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="294"/>
        <source>Linear-attention layers: the speed assumes their fast kernels (pip install flash-linear-attention causal-conv1d); without them transformers falls back to much slower reference code</source>
        <translation>线性注意力层：速度按其快速内核估算（pip install flash-linear-attention causal-conv1d）；没有它们时 transformers 会退回到慢得多的参考实现</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="296"/>
        <source>Linear-attention layers: on this device transformers runs them in its reference PyTorch code, slower than this estimate; a trial (gpucheck trial) measures it and calibrates the estimate</source>
        <translation>线性注意力层：在这台设备上 transformers 用其 PyTorch 参考实现运行它们，比本估算慢；试运行（gpucheck trial）可实测并校准估算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="307"/>
        <source>The sequence length {seq} is longer than the model's {most} position embeddings: training stops with an index error; use at most {most} tokens</source>
        <translation>序列长度 {seq} 超过了模型的 {most} 个位置嵌入，训练会因索引越界而中断；请用不超过 {most} 个 token</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="309"/>
        <source>The sequence length {seq} is longer than the {most} tokens this model was trained on: it runs, but its answers past {most} tokens degrade unless the positions are rescaled (rope_scaling)</source>
        <translation>序列长度 {seq} 超过了这个模型训练时的 {most} 个 token：可以运行，但超过 {most} 个 token 后输出质量会下降，除非对位置编码做缩放（rope_scaling）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="362"/>
        <source>QLoRA of a mixture of experts: bitsandbytes quantizes linear layers only, so these 4-bit figures hold where each expert is its own linear layer (transformers 4.x: pip install "transformers&lt;5"); transformers 5 keeps the experts as 3-D weights, which stay 16-bit</source>
        <translation>混合专家模型的 QLoRA：bitsandbytes 只量化线性层，所以这些 4 位的数字只在每个专家是独立线性层时成立（transformers 4.x：pip install "transformers&lt;5"）；transformers 5 把专家存成三维权重，它们仍是 16 位</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="368"/>
        <source>No usable GPU: the estimate is for training on the CPU</source>
        <translation>没有可用的 GPU：估算按在 CPU 上训练计算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="370"/>
        <source>Apple GPUs share memory with the system: the job and everything else running share the same RAM</source>
        <translation>Apple GPU 与系统共用内存，训练任务和其他正在运行的程序共用同一份内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="415"/>
        <location filename="../../gpucheck/report/machine_section.py" line="118"/>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="415"/>
        <source>workstation</source>
        <translation>工作站</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="415"/>
        <location filename="../../gpucheck/estimate/core.py" line="416"/>
        <location filename="../../gpucheck/estimate/core.py" line="426"/>
        <location filename="../../gpucheck/report/machine_section.py" line="118"/>
        <source>desktop</source>
        <translation>台式机</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="416"/>
        <location filename="../../gpucheck/machine_text.py" line="103"/>
        <location filename="../../gpucheck/report/machine_section.py" line="118"/>
        <source>laptop</source>
        <translation>笔记本电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="416"/>
        <source>Apple Mac</source>
        <translation>苹果 Mac 电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="423"/>
        <source>The CPU sets the pace: it launches about {k} GPU operations per step, and the GPU finishes each sooner than this PC's {ghz} GHz CPU can launch the next. A larger micro-batch or a compiled model (torch.compile) helps more than a faster GPU</source>
        <translation>速度由 CPU 决定：每步要下发约 {k} 个 GPU 操作，GPU 完成每个操作的速度比这台电脑 {ghz} GHz 的 CPU 下发下一个还快。加大微批次或编译模型（torch.compile）比换更快的 GPU 更有用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="427"/>
        <source>The CPU sets the pace: it launches about {k} GPU operations per step, and the GPU finishes each sooner than the CPU can launch the next. The estimate assumes the typical {kind} CPU of this GPU at {ghz} GHz (a scan of the real machine uses its own clock); a larger micro-batch or a compiled model (torch.compile) helps more than a faster GPU</source>
        <translation>速度由 CPU 决定：每步要下发约 {k} 个 GPU 操作，GPU 完成每个操作的速度比 CPU 下发下一个还快。估算假设搭配这款 GPU 的典型{kind} CPU，主频 {ghz} GHz（扫描真实机器时会用它自己的主频）；加大微批次或编译模型（torch.compile）比换更快的 GPU 更有用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="434"/>
        <source>{method}, {precision}, {optimizer}, micro-batch {batch}</source>
        <translation>{method}，{precision}，{optimizer}，微批次 {batch}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="437"/>
        <source>gradient accumulation {k} (the optimizer steps every {n} samples per GPU)</source>
        <translation>梯度累积 {k}（每块 GPU 每 {n} 个样本更新一次优化器）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="440"/>
        <source>image size {n}×{n} pixels: {tokens} tokens a picture (a patch each and the class token)</source>
        <translation>图像尺寸 {n}×{n} 像素：每张图 {tokens} 个 token（每个图块一个，外加分类 token）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="445"/>
        <source>samples of about {avg} tokens packed into rows of {n} tokens</source>
        <translation>约 {avg} token 的短样本拼接（packing）成每条 {n} token 的序列</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="447"/>
        <source>sequences up to {n} tokens, {avg} on average</source>
        <translation>序列最长 {n} 个 token，平均 {avg} 个</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="449"/>
        <source>sequence length {n} tokens</source>
        <translation>序列长度 {n} 个 token</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="451"/>
        <source>image size {n}×{n} pixels</source>
        <translation>图像尺寸 {n}×{n} 像素</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="453"/>
        <source>gradient checkpointing on</source>
        <translation>开启梯度检查点</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="455"/>
        <source>TRL's chunked cross-entropy loss (its SFTTrainer's default since TRL 1.7)</source>
        <translation>TRL 的分块交叉熵损失（TRL 1.7 起 SFTTrainer 的默认设置）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="458"/>
        <source>LoRA rank {r} (kohya network_dim) on {targets}</source>
        <translation>LoRA 秩 {r}（kohya 的 network_dim），作用于 {targets}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="461"/>
        <source>LoRA rank {r} on {targets}</source>
        <translation>LoRA 秩 {r}，作用于 {targets}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="462"/>
        <source>LoRA dropout {p:.2f}</source>
        <translation>LoRA dropout 比例 {p:.2f}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/core.py" line="464"/>
        <source>the time includes {n} evaluation passes ({time})</source>
        <translation>时间已包含 {n} 次评估（{time}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="59"/>
        <location filename="../../gpucheck/estimate/settings.py" line="67"/>
        <source>{flag}: expected a whole number between 1 and {most}, got {value}</source>
        <translation>{flag}：应为 1 到 {most} 之间的整数，实际为 {value}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="75"/>
        <source>{flag}: expected one of {choices}, got {value}</source>
        <translation>{flag}：应为 {choices} 之一，实际为 {value}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="79"/>
        <source>{flag}: expected on or off</source>
        <translation>{flag}：应为 on 或 off</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="83"/>
        <source>{flag}: expected a number above 0 and at most 1000000, got {value}</source>
        <translation>{flag}：应为大于 0 且不超过 1000000 的数，实际为 {value}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="88"/>
        <source>{flag}: expected a probability from 0 up to (not including) 1, got {value}</source>
        <translation>{flag}：应为 0 到 1 之间的概率（不含 1），实际为 {value}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="94"/>
        <source>{flag}: expected a whole number from {lo} to {hi}, got {value}</source>
        <translation>{flag}：应为 {lo} 到 {hi} 之间的整数，实际为 {value}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="119"/>
        <source>{flag} applies to language-model jobs; {id} is a {arch}</source>
        <translation>{flag} 只适用于语言模型任务；{id} 是 {arch}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="123"/>
        <source>{flag} applies to jobs on text; {id} works on images</source>
        <translation>{flag} 只适用于文本任务；{id} 处理的是图像</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="124"/>
        <source>{flag}: {id} pads every clip to {seq} encoder positions (Whisper's 30 seconds), so the clips' length does not change its work</source>
        <translation>{flag}：{id} 会把每段音频补齐到 {seq} 个编码器位置（Whisper 的 30 秒），所以音频长短不改变计算量</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="131"/>
        <source>{flag} applies to LoRA and QLoRA, not to a full fine-tune; use {other} lora</source>
        <translation>{flag} 只适用于 LoRA 和 QLoRA，不适用于全量微调；请使用 {other} lora</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="159"/>
        <source>unknown setting '{key}'</source>
        <translation>未知的设置 '{key}'</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="171"/>
        <source>{flag} qlora: needs a transformer model; {id} is a {arch}</source>
        <translation>{flag} qlora：需要 Transformer 模型；{id} 是 {arch}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="177"/>
        <source>{flag} {value}: {id} has nothing for LoRA to adapt (it trains a {arch} from scratch or has no transformer or U-Net layers); use {other} full</source>
        <translation>{flag} {value}：{id} 没有可供 LoRA 适配的层（它从头训练 {arch}，或没有 Transformer 或 U-Net 层）；请用 {other} full</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="182"/>
        <source>{flag}: {id} is not a transformer; use {other}</source>
        <translation>{flag}：{id} 不是 Transformer 模型；请使用 {other}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="187"/>
        <source>{flag} {value}: the model of {id} has position embeddings for {most} tokens and no more (a longer sequence stops with an index error); give at most {most}</source>
        <translation>{flag} {value}：{id} 的模型只有 {most} 个位置的位置嵌入（更长的序列会因索引越界而中断）；请设为不超过 {most}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="192"/>
        <source>{flag} {value}: longer than the sequence length {seq}, to which longer samples are cut; give at most {seq}, or a longer {other}</source>
        <translation>{flag} {value}：超过了序列长度 {seq}，更长的样本会被截断到这个长度；请给出不超过 {seq} 的值，或者调大 {other}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/settings.py" line="196"/>
        <source>{flag}: {id} is a transformer; use {other}</source>
        <translation>{flag}：{id} 是 Transformer 模型；请使用 {other}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="100"/>
        <source>this PC</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="108"/>
        <source>This PC has different GPU models; the estimate uses the {n}× {name} only</source>
        <translation>本机装有不同型号的 GPU；估算只使用其中的 {n}× {name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="114"/>
        <source>{name} is not in the GPU catalog: memory is checked, speed is unknown</source>
        <translation>{name} 不在显卡列表中：已检查显存，速度未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="265"/>
        <source>The GPU's power limit is {w} W, below the {d} W its rated speed needs: its clock is priced at about {p}% of the rated one</source>
        <translation>GPU 的功耗上限为 {w} W，低于达到额定速度所需的 {d} W：估算按额定频率的约 {p}% 计算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="324"/>
        <source>A MIG slice has {n} of the GPU's {total} SMs: the speed is that share of the whole GPU</source>
        <translation>一个 MIG 分区只有这块显卡全部 {total} 个 SM 中的 {n} 个：速度按整块 GPU 的相应比例计算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="350"/>
        <source>MIG is on: a job gets one slice ({size}), not the whole GPU</source>
        <translation>已开启 MIG：一个训练任务只能用到一个分区（{size}），而不是整块 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/estimate/target.py" line="373"/>
        <location filename="../../gpucheck/estimate/target.py" line="369"/>
        <source>{used} of {name}'s memory is in use by other programs right now; the estimate assumes you close them</source>
        <translation>{name} 当前有 {used} 显存被其他程序占用；估算假设你会关闭这些程序</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="31"/>
        <location filename="../../gpucheck/report/__init__.py" line="74"/>
        <source>{path}: is a folder; give a file name</source>
        <translation>{path}：这是一个文件夹，请给出文件名</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="33"/>
        <source>{path}: not a regular file; give a file name</source>
        <translation>{path}：不是普通文件，请给出文件名</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="35"/>
        <location filename="../../gpucheck/report/__init__.py" line="76"/>
        <source>{path}: the folder {folder} does not exist</source>
        <translation>{path}：文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="41"/>
        <location filename="../../gpucheck/report/__init__.py" line="78"/>
        <location filename="../../gpucheck/report/__init__.py" line="83"/>
        <source>{path}: cannot write to folder {folder} (permission denied)</source>
        <translation>{path}：无法写入文件夹 {folder}（权限不足）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="90"/>
        <source>{path}: the file is read-only; give another name or make it writable</source>
        <translation>{path}：文件是只读的；请换一个文件名，或先让它可写</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="165"/>
        <source>{path}: not a regular file (a device, a pipe or a socket); give a file</source>
        <translation>{path}：不是普通文件（是设备、管道或套接字）；请给出一个文件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="181"/>
        <source>{path}: too large (more than {limit} MB); is this the right file?</source>
        <translation>{path}：文件太大（超过 {limit} MB）；是不是选错文件了？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="194"/>
        <location filename="../../gpucheck/machine.py" line="293"/>
        <source>{path}: file not found</source>
        <translation>{path}：文件不存在</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="198"/>
        <location filename="../../gpucheck/fileio.py" line="67"/>
        <location filename="../../gpucheck/machine.py" line="297"/>
        <source>{path}: permission denied</source>
        <translation>{path}：权限不足</translation>
    </message>
    <message>
        <location filename="../../gpucheck/fileio.py" line="202"/>
        <location filename="../../gpucheck/machine.py" line="301"/>
        <source>{path}: cannot read ({reason})</source>
        <translation>{path}：无法读取（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="215"/>
        <location filename="../../gpucheck/hf_types.py" line="95"/>
        <source>{where}: key '{key}': expected a divisor of {other} ({n}), got {got}</source>
        <translation>{where}：键“{key}”应能整除 {other}（{n}），实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="312"/>
        <location filename="../../gpucheck/trial/models.py" line="53"/>
        <location filename="../../gpucheck/trial/models.py" line="50"/>
        <source>{where}: expected a JSON object (a Hugging Face config.json)</source>
        <translation>{where}：应为一个 JSON 对象（Hugging Face 的 config.json）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="325"/>
        <source>{where}: missing key 'model_type' (a string such as 'llama', 'qwen2', 'gpt2', 'bert')</source>
        <translation>{where}：缺少键“model_type”（字符串，例如“llama”“qwen2”“gpt2”“bert”）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="383"/>
        <source>{where}: key 'model_type': '{got}' is not supported (expected one of: {names}); give its sizes in a workload .toml instead</source>
        <translation>{where}：键“model_type”的值“{got}”不受支持（应为以下之一：{names}）；可改用训练任务 .toml 文件写明它的各项尺寸</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="408"/>
        <location filename="../../gpucheck/trial/models.py" line="45"/>
        <source>is a folder; give the config.json inside it</source>
        <translation>这是一个文件夹；请给出其中的 config.json</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="409"/>
        <location filename="../../gpucheck/trial/models.py" line="46"/>
        <source>not a text file (expected a Hugging Face config.json)</source>
        <translation>不是文本文件（应为 Hugging Face 的 config.json）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="413"/>
        <location filename="../../gpucheck/machine.py" line="305"/>
        <source>{path}: not valid JSON (line {line}, column {column}: {reason})</source>
        <translation>{path}：不是有效的 JSON（第 {line} 行，第 {column} 列：{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="416"/>
        <location filename="../../gpucheck/machine.py" line="308"/>
        <source>{path}: not valid JSON (nested too deeply)</source>
        <translation>{path}：不是有效的 JSON（嵌套层级太深）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_config.py" line="418"/>
        <location filename="../../gpucheck/machine.py" line="310"/>
        <source>{path}: not valid JSON (a number with more than 4300 digits)</source>
        <translation>{path}：不是有效的 JSON（有超过 4300 位的数字）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_diffusers.py" line="50"/>
        <source>{where}: a Stable Diffusion model (diffusers {cls}); estimate it with the built-in job sd15-lora or sd15-dreambooth, e.g. 'gpucheck estimate sd15-lora --image-size 512'</source>
        <translation>{where}：这是 Stable Diffusion 模型（diffusers {cls}）；请用内置任务 sd15-lora 或 sd15-dreambooth 估算，例如“gpucheck estimate sd15-lora --image-size 512”</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_diffusers.py" line="54"/>
        <source>{where}: a Stable Diffusion XL model (diffusers {cls}); estimate it with the built-in job sdxl-lora, e.g. 'gpucheck estimate sdxl-lora --batch 1'</source>
        <translation>{where}：这是 Stable Diffusion XL 模型（diffusers {cls}）；请用内置任务 sdxl-lora 估算，例如“gpucheck estimate sdxl-lora --batch 1”</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_diffusers.py" line="59"/>
        <source>{where}: a diffusion transformer (diffusers {cls}, as in FLUX.1 or Stable Diffusion 3) is not modelled yet. FLUX.1's transformer has 12 B parameters, SDXL's U-Net 2.6 B: for FLUX.1 the built-in job sdxl-lora gives only a lower bound of the memory and time</source>
        <translation>{where}：扩散 Transformer 模型（diffusers {cls}，如 FLUX.1、Stable Diffusion 3）暂不支持估算。FLUX.1 的 Transformer 有 120 亿参数，SDXL 的 U-Net 为 26 亿：对 FLUX.1 而言，内置任务 sdxl-lora 的显存和时间只是下限</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_diffusers.py" line="63"/>
        <source>{where}: a diffusers config ({cls}), not a language or speech model's config.json; the built-in diffusion jobs are sd15-lora, sd15-dreambooth and sdxl-lora</source>
        <translation>{where}：这是 diffusers 配置（{cls}），不是语言或语音模型的 config.json；内置的扩散模型任务有 sd15-lora、sd15-dreambooth 和 sdxl-lora</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_moe.py" line="54"/>
        <location filename="../../gpucheck/hf_parts.py" line="120"/>
        <source>{where}: key '{key}': expected a list of layer numbers, got {got}</source>
        <translation>{where}：键“{key}”应为层号列表，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_parts.py" line="23"/>
        <source>{where}: missing key '{key}' (an integer)</source>
        <translation>{where}：缺少键“{key}”（整数）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_parts.py" line="27"/>
        <location filename="../../gpucheck/machine.py" line="276"/>
        <source>{where}: key '{key}': expected an integer, got {got}</source>
        <translation>{where}：键“{key}”应为整数，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_parts.py" line="30"/>
        <location filename="../../gpucheck/workload_schema.py" line="164"/>
        <source>{where}: key '{key}': expected an integer from {lo} to {hi}, got {got}</source>
        <translation>{where}：键“{key}”应为 {lo} 到 {hi} 之间的整数，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_parts.py" line="38"/>
        <location filename="../../gpucheck/hf_parts.py" line="203"/>
        <source>{where}: key '{key}': expected a multiple of {other} ({n}), got {got}</source>
        <translation>{where}：键“{key}”应为 {other}（{n}）的整数倍，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_parts.py" line="47"/>
        <source>{where}: key '{key}': expected true or false, got {got}</source>
        <translation>{where}：键“{key}”应为 true 或 false，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_parts.py" line="196"/>
        <source>{where}: key '{key}': expected a list of {n} layer kinds ({kinds}), got {got}</source>
        <translation>{where}：键“{key}”应为 {n} 个层类型（{kinds}）组成的列表，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/hf_types.py" line="209"/>
        <source>{where}: key '{key}': expected at most {other} ({n}), got {got}</source>
        <translation>{where}：键“{key}”应不大于 {other}（{n}），实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="462"/>
        <location filename="../../gpucheck/report/measured.py" line="137"/>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="464"/>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="466"/>
        <source>{n} h</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="469"/>
        <source>{n} days</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="470"/>
        <source>{n} years</source>
        <translation>{n} 年</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="494"/>
        <source>{amount} (about {other})</source>
        <translation>{amount}（约 {other}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="505"/>
        <source>{amount}/GPU-hour</source>
        <translation>{amount}/卡·时</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="510"/>
        <source>full fine-tuning</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="510"/>
        <location filename="../../gpucheck/report/build.py" line="142"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="510"/>
        <location filename="../../gpucheck/report/build.py" line="145"/>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="513"/>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="513"/>
        <source>8-bit AdamW</source>
        <translation>8 位 AdamW</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="513"/>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="513"/>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="515"/>
        <source>the attention layers' q_proj and v_proj</source>
        <translation>注意力层的 q_proj、v_proj</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="516"/>
        <source>the attention layers' q_proj, k_proj, v_proj and o_proj</source>
        <translation>注意力层的 q_proj、k_proj、v_proj、o_proj</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="517"/>
        <source>the MLP layers</source>
        <translation>MLP 层</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="518"/>
        <source>all linear layers</source>
        <translation>所有线性层</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="526"/>
        <source>training from scratch</source>
        <translation>从零训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="545"/>
        <source>every linear layer of the U-Net's transformer blocks (kohya's networks.lora)</source>
        <translation>U-Net 各 Transformer 块中的全部线性层（kohya 的 networks.lora）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="546"/>
        <source>the U-Net's attention layers (to_q, to_k, to_v, to_out.0)</source>
        <translation>U-Net 注意力层的 to_q、to_k、to_v、to_out.0</translation>
    </message>
    <message>
        <location filename="../../gpucheck/i18n.py" line="558"/>
        <source>{time} (Beijing time)</source>
        <translation>{time}（北京时间）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="266"/>
        <source>{where}: expected a JSON object with a gpucheck scan</source>
        <translation>{where}：应为包含 gpucheck 扫描结果的 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="273"/>
        <source>{where}: missing 'schema_version' — is this a gpucheck scan?</source>
        <translation>{where}：缺少 'schema_version'——这是 gpucheck 的扫描文件吗？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="279"/>
        <source>{where}: schema_version {version} is not supported (this gpucheck reads {supported})</source>
        <translation>{where}：不支持 schema_version {version}（此版本 gpucheck 只能读取 {supported}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="284"/>
        <source>{where}: nested too deeply</source>
        <translation>{where}：嵌套层级太深</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="295"/>
        <source>{path}: is a folder, not a scan file</source>
        <translation>{path}：这是一个文件夹，不是扫描文件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="299"/>
        <source>{path}: not a text file (expected JSON from 'gpucheck scan --json')</source>
        <translation>{path}：不是文本文件（应为 'gpucheck scan --json' 输出的 JSON）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="373"/>
        <location filename="../../gpucheck/machine.py" line="451"/>
        <location filename="../../gpucheck/tomldata.py" line="45"/>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="373"/>
        <location filename="../../gpucheck/machine.py" line="445"/>
        <location filename="../../gpucheck/tomldata.py" line="45"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="373"/>
        <location filename="../../gpucheck/machine.py" line="459"/>
        <location filename="../../gpucheck/tomldata.py" line="45"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="373"/>
        <location filename="../../gpucheck/machine.py" line="455"/>
        <location filename="../../gpucheck/tomldata.py" line="45"/>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="383"/>
        <source>{where}: expected {what}, got {got}</source>
        <translation>{where}：应为{what}，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="390"/>
        <location filename="../../gpucheck/tomldata.py" line="90"/>
        <source>one of {names}</source>
        <translation>以下之一：{names}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="394"/>
        <source>at most {n} bytes (1 EiB)</source>
        <translation>不超过 {n} 字节（1 EiB）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="396"/>
        <source>a number up to {n}</source>
        <translation>不超过 {n} 的数字</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="399"/>
        <source>0 or a speed of at least {n}</source>
        <translation>0 或不低于 {n} 的速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="406"/>
        <location filename="../../gpucheck/machine.py" line="468"/>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="409"/>
        <location filename="../../gpucheck/machine.py" line="434"/>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="411"/>
        <source> or </source>
        <translation>或</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="439"/>
        <source>a list of {n} items</source>
        <translation>含 {n} 项的列表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="447"/>
        <source>a finite number</source>
        <translation>有限的数字</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="479"/>
        <source>{where}: missing key '{key}'</source>
        <translation>{where}：缺少键“{key}”</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine.py" line="485"/>
        <source>a number ≥ 0</source>
        <translation>≥ 0 的数字</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="16"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="16"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="21"/>
        <source>used for training</source>
        <translation>用于训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="21"/>
        <source>not used for training</source>
        <translation>不用于训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="22"/>
        <source>GPU {index}: {name} ({role})</source>
        <translation>GPU {index}：{name}（{role}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="24"/>
        <source>{usable} usable of unified memory (shared with the CPU)</source>
        <translation>统一内存中可用 {usable}（与 CPU 共享）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="26"/>
        <source>{vram} carved out of system RAM, can borrow {shared} more</source>
        <translation>从系统内存中划出 {vram}，还可以再借用 {shared}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="29"/>
        <source>shares system RAM</source>
        <translation>共用系统内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="33"/>
        <source>{total} total, {free} free, {reserved} kept by the driver</source>
        <translation>共 {total}，可用 {free}，驱动保留 {reserved}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="36"/>
        <source>{total} total, {free} free</source>
        <translation>共 {total}，可用 {free}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="38"/>
        <source>Video memory: {mem}</source>
        <translation>显存：{mem}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="39"/>
        <source>compute capability {cc}</source>
        <translation>计算能力 {cc}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="42"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="201"/>
        <source>Architecture: {arch}</source>
        <translation>架构：{arch}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="44"/>
        <source>Tensor cores: generation {gen}; BF16: {bf16}; FP8: {fp8}</source>
        <translation>Tensor Core：第 {gen} 代；BF16：{bf16}；FP8：{fp8}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="48"/>
        <source>units</source>
        <translation>个单元</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="48"/>
        <source>SMs</source>
        <translation>个 SM</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="48"/>
        <source>compute units</source>
        <translation>个计算单元</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="48"/>
        <source>GPU cores</source>
        <translation>个 GPU 核心</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="49"/>
        <source>Compute: {n} {unit}</source>
        <translation>计算单元：{n} {unit}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="51"/>
        <source>PCIe: gen {gen} x{width} now (max gen {gmax} x{wmax})</source>
        <translation>PCIe：当前 Gen {gen} x{width}（最高 Gen {gmax} x{wmax}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="55"/>
        <source>NVLink: {n} active links to {peers} other GPU(s)</source>
        <translation>NVLink：{n} 条活动链路，连接另外 {peers} 块 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="58"/>
        <source>Power limit: {w} W (default {d} W)</source>
        <translation>功耗上限：{w} W（默认 {d} W）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="61"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="127"/>
        <source>Temperature: {t} °C</source>
        <translation>温度：{t} °C</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="63"/>
        <source>MIG: on, {n} slices</source>
        <translation>MIG：已开启，{n} 个分区</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="65"/>
        <source>{name}: {mem}</source>
        <translation>{name}：{mem}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="67"/>
        <source>Also drives a display</source>
        <translation>同时连接着显示器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="69"/>
        <source>UUID: {uuid}</source>
        <translation>UUID：{uuid}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="80"/>
        <source>Computer: {name}</source>
        <translation>计算机：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="82"/>
        <source>GPU: none found</source>
        <translation>GPU：未找到</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="86"/>
        <source>{p} cores / {l} threads</source>
        <translation>{p} 核 / {l} 线程</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="87"/>
        <source>CPU: {brand}, {cores}</source>
        <translation>CPU：{brand}，{cores}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="90"/>
        <source>measured on one busy core</source>
        <translation>在一个满载核心上实测</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="90"/>
        <source>top clock, as the system reports it</source>
        <translation>系统报告的最高频率</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="91"/>
        <source>Clock: {mhz} MHz ({how})</source>
        <translation>频率：{mhz} MHz（{how}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="93"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="212"/>
        <source>Instruction sets: {flags}</source>
        <translation>指令集：{flags}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="95"/>
        <source>RAM: {total} total, {avail} available</source>
        <translation>内存：共 {total}，可用 {avail}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="97"/>
        <source>(shared with the GPU)</source>
        <translation>（与 GPU 共享）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="100"/>
        <source>Disk {mount}: {kind}, {free} free of {total}</source>
        <translation>硬盘 {mount}：{kind}，可用 {free}，共 {total}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="103"/>
        <source>not a laptop</source>
        <translation>不是笔记本电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="103"/>
        <source>laptop or not unknown</source>
        <translation>是否为笔记本电脑未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="104"/>
        <source>battery</source>
        <translation>电池</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="104"/>
        <source>mains</source>
        <translation>市电（插电）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="105"/>
        <source>Power: {kind}, running on {source}</source>
        <translation>电脑类型：{kind}，供电：{source}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="107"/>
        <source>Estimated peak draw {peak} W; a server's power supplies are sized by its vendor</source>
        <translation>估算峰值功耗 {peak} W；服务器的电源由厂商选定</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="110"/>
        <source>Estimated peak draw {peak} W; recommended PSU {psu} W (estimate)</source>
        <translation>估算峰值功耗 {peak} W；建议电源 {psu} W（估算）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="113"/>
        <source>System: {os} {version}, Python {py}</source>
        <translation>系统：{os} {version}，Python {py}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="116"/>
        <source>NVIDIA driver {driver} (CUDA {cuda})</source>
        <translation>NVIDIA 驱动 {driver}（CUDA {cuda}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="120"/>
        <source>{name} {version}: can use the GPU: {gpu} — {reason}</source>
        <translation>{name} {version}：能否使用 GPU：{gpu} — {reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="123"/>
        <source>No PyTorch, TensorFlow or JAX installed</source>
        <translation>没有安装 PyTorch、TensorFlow 或 JAX</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="129"/>
        <source>Findings:</source>
        <translation>检测结果：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="135"/>
        <source>Scanned in {s} s</source>
        <translation>扫描用时 {s} 秒</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="140"/>
        <location filename="../../gpucheck/report/machine_section.py" line="55"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="36"/>
        <source>NVMe SSD</source>
        <translation>NVMe 固态硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="140"/>
        <location filename="../../gpucheck/report/machine_section.py" line="56"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="36"/>
        <source>SSD</source>
        <translation>固态硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="140"/>
        <location filename="../../gpucheck/report/machine_section.py" line="57"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="36"/>
        <source>hard disk</source>
        <translation>机械硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="140"/>
        <location filename="../../gpucheck/report/machine_section.py" line="58"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="36"/>
        <source>virtual disk</source>
        <translation>虚拟磁盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="141"/>
        <source>unknown type</source>
        <translation>未知类型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="141"/>
        <location filename="../../gpucheck/probe/storage.py" line="243"/>
        <location filename="../../gpucheck/report/machine_section.py" line="59"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="37"/>
        <source>network drive</source>
        <translation>网络驱动器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/machine_text.py" line="141"/>
        <location filename="../../gpucheck/report/machine_section.py" line="60"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="37"/>
        <source>removable drive</source>
        <translation>移动存储设备</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/__init__.py" line="77"/>
        <source>{area}: unknown because the check failed ({error})</source>
        <translation>{area}：未知，因为检测失败（{error}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/__init__.py" line="109"/>
        <source>{area}: unknown because the check did not answer within {seconds} s</source>
        <translation>{area}：未知，因为检测在 {seconds} 秒内没有响应</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/amd.py" line="121"/>
        <source>AMD Radeon GPU (device {did})</source>
        <translation>AMD Radeon GPU（设备 {did}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/amd.py" line="159"/>
        <location filename="../../gpucheck/probe/amd.py" line="195"/>
        <location filename="../../gpucheck/probe/amd.py" line="247"/>
        <source>AMD GPU {index}</source>
        <translation>AMD GPU {index}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/amd.py" line="310"/>
        <source>{gpu} is built into the processor: its {vram} of video memory is a part of system RAM set aside in the BIOS; it can also borrow up to {shared} more.</source>
        <translation>{gpu} 是集成在处理器里的核显：它的 {vram} 显存是在 BIOS 中从系统内存划出来的一部分；另外最多还能借用 {shared}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/amd.py" line="314"/>
        <source>AMD: a tool's output could not be read ({detail})</source>
        <translation>AMD：无法读取工具的输出（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/apple.py" line="122"/>
        <source>{gpu}: the GPU shares the {ram} of memory with the CPU; it may use about {usable} of it (estimated as {pct}% of RAM, Metal's usual limit — the exact figure needs Metal)</source>
        <translation>{gpu}：GPU 与 CPU 共用 {ram} 内存；GPU 大约可以使用其中的 {usable}（按内存的 {pct}% 估算，这是 Metal 的常见上限——确切数字需要通过 Metal 查询）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/apple.py" line="128"/>
        <source>{gpu}: GPU memory unknown because the RAM size could not be read</source>
        <translation>{gpu}：显存未知，因为无法读取内存大小</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/apple.py" line="169"/>
        <source>Apple: system_profiler output could not be read ({detail})</source>
        <translation>Apple：无法读取 system_profiler 的输出（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="115"/>
        <source>NVML library not found</source>
        <translation>找不到 NVML 库</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="116"/>
        <source>the NVIDIA kernel driver is not loaded</source>
        <translation>NVIDIA 内核驱动没有加载</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="117"/>
        <source>no permission to talk to the driver</source>
        <translation>没有访问驱动的权限</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="118"/>
        <source>the nvidia-ml-py package is missing</source>
        <translation>缺少 nvidia-ml-py 软件包</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="122"/>
        <source>NVIDIA: compute capability, power limit and free memory unknown because NVML could not be used ({reason}); the video memory size is from the Windows registry</source>
        <translation>NVIDIA：计算能力、功耗上限和可用显存未知，因为无法使用 NVML（{reason}）；显存大小来自 Windows 注册表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="127"/>
        <source>NVIDIA: a GPU is installed but no working driver was found ({reason}); install the NVIDIA driver to train on it</source>
        <translation>NVIDIA：装有 GPU，但没有找到可用的驱动（{reason}）；要用它训练，请安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="129"/>
        <source>NVIDIA: no driver found ({reason})</source>
        <translation>NVIDIA：没有找到驱动（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="136"/>
        <source>{gpu}: video memory unknown because its driver did not report it</source>
        <translation>{gpu}：显存未知，因为驱动没有报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="140"/>
        <source>{gpu} is slowing itself down right now ({reasons}): check cooling and power before training</source>
        <translation>{gpu} 当前正在降频（{reasons}）：训练前请检查散热和供电</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="145"/>
        <source>{gpu} also drives a display: the desktop takes part of its memory and time</source>
        <translation>{gpu} 同时连接着显示器：桌面会占用它的一部分显存和算力</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="150"/>
        <source>{gpu} is split into {n} MIG slices: a job gets one slice's memory ({size}), not the whole GPU's</source>
        <translation>{gpu} 被划分成 {n} 个 MIG 分区：一个训练任务只能用到一个分区的显存（{size}），而不是整块 GPU 的显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="163"/>
        <source>Training would run on {gpu}; {others} is not used for training</source>
        <translation>训练将在 {gpu} 上进行；{others} 不用于训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="166"/>
        <source>No GPU for training was found: jobs would run on the CPU</source>
        <translation>没有找到可用于训练的 GPU：训练任务只能在 CPU 上运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="186"/>
        <source>{name} {version} cannot use the GPU: {reason}</source>
        <translation>{name} {version} 无法使用 GPU：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="191"/>
        <source>The NVIDIA driver {driver} supports CUDA only up to {cuda}; current PyTorch builds need CUDA {need}: update the driver</source>
        <translation>NVIDIA 驱动 {driver} 最高只支持 CUDA {cuda}；当前的 PyTorch 版本需要 CUDA {need}：请更新驱动</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="209"/>
        <source>This is a virtual machine: its host's power supply cannot be judged from inside it.</source>
        <translation>这是一台虚拟机：在虚拟机内部无法判断宿主机的电源。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="217"/>
        <source>Running on battery: laptops slow the GPU down on battery — plug in before training</source>
        <translation>正在使用电池供电：笔记本用电池时会让 GPU 降速——训练前请插上电源</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="224"/>
        <source>Running in a virtual machine ({name}): it sees only the CPU, memory and disks the host gives it</source>
        <translation>正在虚拟机（{name}）中运行：只能看到宿主机分配给它的 CPU、内存和硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="233"/>
        <source>Running in a virtual machine ({name}): it sees only the CPU, memory and disks the host gives it, and the host's other guests can slow them down; a job's "Try it for real" (or gpucheck calibrate) measures what this machine really does, and later estimates use it</source>
        <translation>正在虚拟机（{name}）中运行：只能看到宿主机分配给它的 CPU、内存和硬盘，而且宿主机上的其他虚拟机可能拖慢它们；在任务里点“真实试运行”（或运行 gpucheck calibrate）可以测出这台机器的实际速度，之后的估算都会用上它</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="240"/>
        <source>Only spinning hard disks were found: loading training data from them can be the bottleneck</source>
        <translation>只找到机械硬盘：从机械硬盘读取训练数据可能成为瓶颈</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/assemble.py" line="245"/>
        <source>Little free disk space: at most {free} free; datasets and checkpoints need room</source>
        <translation>硬盘可用空间不多：最多只有 {free}；数据集和检查点都需要空间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/cpu.py" line="235"/>
        <source>CPU model unknown because the system did not report it</source>
        <translation>CPU 型号未知，因为系统没有报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/cpu.py" line="241"/>
        <source>The system does not report the CPU's top clock (virtual machines often hide it): one busy core, measured, runs at {mhz} MHz</source>
        <translation>系统未报告 CPU 的最高频率（虚拟机常会隐藏它）：实测一个满载核心的频率为 {mhz} MHz</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/cpu.py" line="245"/>
        <source>CPU clock speed unknown because the system does not report it (virtual machines often hide it)</source>
        <translation>CPU 频率未知，因为系统没有报告（虚拟机通常会隐藏它）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/cpu.py" line="249"/>
        <source>CPU core count unknown because the system did not report it</source>
        <translation>CPU 核心数未知，因为系统没有报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/linux.py" line="122"/>
        <source>{vendor} GPU {vid}:{did}</source>
        <translation>{vendor} GPU {vid}:{did}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/linux.py" line="122"/>
        <location filename="../../gpucheck/report/machine_section.py" line="20"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="35"/>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/memory.py" line="14"/>
        <source>RAM size unknown because the system did not report it ({detail})</source>
        <translation>内存大小未知，因为系统没有报告（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="172"/>
        <source>NVIDIA GPU {index}</source>
        <translation>NVIDIA GPU {index}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="209"/>
        <source>MIG slice {i} ({sms} SMs)</source>
        <translation>MIG 分区 {i}（{sms} 个 SM）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="300"/>
        <source>NVIDIA: cannot ask the driver (the nvidia-ml-py package is missing)</source>
        <translation>NVIDIA：无法查询驱动（缺少 nvidia-ml-py 软件包）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="316"/>
        <source>NVIDIA: the number of GPUs is unknown because NVML failed to count them ({reason})</source>
        <translation>NVIDIA：GPU 数量未知，因为 NVML 统计失败（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="323"/>
        <source>NVIDIA GPU {index}: unknown because NVML could not open it ({reason})</source>
        <translation>NVIDIA GPU {index}：未知，因为 NVML 无法打开它（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="327"/>
        <source>SM count</source>
        <translation>SM 数量</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="327"/>
        <source>power limit</source>
        <translation>功耗上限</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="328"/>
        <source>PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="328"/>
        <source>maximum clock</source>
        <translation>最高频率</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="329"/>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="334"/>
        <source>{gpu}: unknown because the driver did not report them: {fields}</source>
        <translation>{gpu} 的驱动没有报告这些信息，因此未知：{fields}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="338"/>
        <source>{gpu}: memory size unknown because NVML did not report it ({reason})</source>
        <translation>{gpu}：显存大小未知，因为 NVML 没有报告（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/nvidia.py" line="342"/>
        <source>{gpu}: compute capability unknown because NVML did not report it ({reason})</source>
        <translation>{gpu}：计算能力未知，因为 NVML 没有报告（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="69"/>
        <source>Apple silicon class default</source>
        <translation>Apple 芯片的类别默认值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="72"/>
        <source>server CPU class default, {w} W per socket</source>
        <translation>服务器 CPU 的类别默认值，每颗 CPU {w} W</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="74"/>
        <source>laptop CPU class default</source>
        <translation>笔记本 CPU 的类别默认值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="75"/>
        <source>desktop CPU class default</source>
        <translation>台式机 CPU 的类别默认值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="101"/>
        <source>A laptop or Mac runs from its own power adapter: no PSU to choose.</source>
        <translation>笔记本电脑或 Mac 使用自带的电源适配器：无需选择电源。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="106"/>
        <source>Estimated, not measured: peak draw ≈ GPU power limits {gpu} W + CPU {cpu} W ({cpu_note}) + {base} W for the rest = {peak} W. A server's power supplies are redundant units sized by its vendor for the GPUs it ships with, so no PSU size is suggested.</source>
        <translation>估算值，非实测：峰值功耗 ≈ GPU 功耗上限 {gpu} W + CPU {cpu} W（{cpu_note}）+ 其他部件 {base} W = {peak} W。服务器的电源是冗余电源，由厂商按出厂配置的 GPU 选定，因此这里不给出电源功率建议。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="111"/>
        <source>Power: this is a server, so its vendor sizes its redundant power supplies. At full load it draws about {peak} W (estimated): check that its power feeds (rack PDU or circuits) can supply that.</source>
        <translation>供电：这是一台服务器，冗余电源由厂商按配置选定。满载时约耗电 {peak} W（估算）：请确认机柜 PDU 或供电线路能提供这么大的功率。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="115"/>
        <source>Whether this is a laptop is unknown, so no power supply size is suggested.</source>
        <translation>无法确定这是不是笔记本电脑，因此不给出电源功率建议。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="123"/>
        <source>Estimated, not measured: peak draw ≈ GPU power limits {gpu} W + CPU {cpu} W ({cpu_note}) + {base} W for the rest = {peak} W; a PSU of at least {psu} W keeps that at or below {pct}% of its rating.</source>
        <translation>估算值，非实测：峰值功耗 ≈ GPU 功耗上限 {gpu} W + CPU {cpu} W（{cpu_note}）+ 其他部件 {base} W = {peak} W；至少 {psu} W 的电源可以让它不超过额定功率的 {pct}%。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="128"/>
        <source>Power supply: this PC should have at least {psu} W (estimated from the parts; the app cannot read the PSU).</source>
        <translation>电源：这台电脑至少应配 {psu} W 的电源（根据配件估算；程序无法读取电源信息）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/power.py" line="132"/>
        <source>GPU power limit unknown because the driver did not report it; the PSU estimate leaves it out.</source>
        <translation>GPU 功耗上限未知，因为驱动没有报告；电源估算未将其计入。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="165"/>
        <source>no GPU it could use was found</source>
        <translation>没有找到它能使用的 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="170"/>
        <source>this {name} build is CPU-only ({variant}); install a CUDA build to use the {gpu}</source>
        <translation>这个 {name} 版本仅支持 CPU（{variant}）；要使用 {gpu}，请安装 CUDA 版本</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="175"/>
        <source>built for CUDA {have}, but the {gpu} (compute capability {cc}) needs CUDA {need} or newer</source>
        <translation>为 CUDA {have} 编译，但 {gpu}（计算能力 {cc}）需要 CUDA {need} 或更新版本</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="179"/>
        <source>built for CUDA {have}, but the installed driver supports only CUDA {driver}: update the NVIDIA driver</source>
        <translation>为 CUDA {have} 编译，但已安装的驱动最高只支持 CUDA {driver}：请更新 NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="183"/>
        <source>CUDA build {have}; the GPU's compute capability is unknown, so support is not certain</source>
        <translation>CUDA {have} 版本；GPU 的计算能力未知，因此不确定是否支持</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="185"/>
        <source>CUDA {have} build supports compute capability {cc}</source>
        <translation>CUDA {have} 版本支持计算能力 {cc}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="189"/>
        <source>ROCm {v} build</source>
        <translation>ROCm {v} 版本</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="191"/>
        <source>this {name} build has no ROCm support; install a ROCm build to use the {gpu}</source>
        <translation>这个 {name} 版本不支持 ROCm；要使用 {gpu}，请安装 ROCm 版本</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="195"/>
        <source>PyTorch uses the Apple GPU through MPS</source>
        <translation>PyTorch 通过 MPS 使用 Apple GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="196"/>
        <source>PyTorch before 1.12 has no Apple GPU (MPS) support</source>
        <translation>1.12 之前的 PyTorch 不支持 Apple GPU（MPS）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="198"/>
        <source>Metal plugin installed</source>
        <translation>已安装 Metal 插件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="199"/>
        <source>no Metal plugin installed for {name}</source>
        <translation>{name} 没有安装 Metal 插件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/software.py" line="200"/>
        <source>support for the {gpu} could not be judged</source>
        <translation>无法判断是否支持 {gpu}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="51"/>
        <source>network file system ({fs})</source>
        <translation>网络文件系统（{fs}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="53"/>
        <source>the block device could not be identified</source>
        <translation>无法识别块设备</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="56"/>
        <source>NVMe device</source>
        <translation>NVMe 设备</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="59"/>
        <location filename="../../gpucheck/probe/storage.py" line="64"/>
        <source>virtual disk of a virtual machine ({detail})</source>
        <translation>虚拟机的虚拟磁盘（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="61"/>
        <location filename="../../gpucheck/probe/storage.py" line="179"/>
        <location filename="../../gpucheck/probe/storage.py" line="241"/>
        <source>USB or removable drive</source>
        <translation>USB 或移动存储设备</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="66"/>
        <source>disk of a virtual machine ({detail})</source>
        <translation>虚拟机的磁盘（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="68"/>
        <source>spinning disk (rotational)</source>
        <translation>机械硬盘（旋转式）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="70"/>
        <source>solid-state disk (not rotational)</source>
        <translation>固态硬盘（非旋转式）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="71"/>
        <source>the disk did not say whether it spins</source>
        <translation>硬盘没有报告自己是否为旋转式</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="181"/>
        <source>disk image</source>
        <translation>磁盘映像</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="183"/>
        <source>solid-state disk (diskutil)</source>
        <translation>固态硬盘（diskutil）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="185"/>
        <source>spinning disk (diskutil)</source>
        <translation>机械硬盘（diskutil）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="186"/>
        <source>diskutil did not say</source>
        <translation>diskutil 没有报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="210"/>
        <source>Disks unknown because the system did not list them ({detail})</source>
        <translation>硬盘信息未知，因为系统没有列出（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="228"/>
        <source>{mount}: free space unknown because it could not be read</source>
        <translation>{mount}：可用空间未知，因为无法读取</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="246"/>
        <source>Windows did not say which physical disk this drive is on</source>
        <translation>Windows 没有报告这个分区位于哪块物理硬盘上</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/storage.py" line="255"/>
        <source>{mount}: disk type unknown because {reason}</source>
        <translation>{mount}：硬盘类型未知，因为{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/probe/windows.py" line="135"/>
        <source>Windows: the list of display adapters is unknown because the registry could not be read ({detail})</source>
        <translation>Windows：显示适配器列表未知，因为无法读取注册表（{detail}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/__init__.py" line="63"/>
        <source>{path}: unknown report type '{ext}' (use .pdf, .html or .json)</source>
        <translation>{path}：未知的报告类型 '{ext}'（请使用 .pdf、.html 或 .json）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/__init__.py" line="64"/>
        <source>no extension</source>
        <translation>无扩展名</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/__init__.py" line="86"/>
        <source>{path}: cannot write to folder {folder} ({reason})</source>
        <translation>{path}：无法写入文件夹 {folder}（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/__init__.py" line="98"/>
        <source>unknown report type '{ext}' (use .pdf, .html or .json)</source>
        <translation>未知的报告类型 '{ext}'（请使用 .pdf、.html 或 .json）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="72"/>
        <source>Every figure is an estimate from published specifications and formulas, not a measurement of your job; real runs differ with the software version, data and settings.</source>
        <translation>所有数字都是根据公开的规格和公式估算的，并非对你的训练任务的实测；实际运行结果会因软件版本、数据和设置而不同。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="74"/>
        <source>VRAM is the memory on the graphics card. A job whose peak need is above what is available stops with an "out of memory" error.</source>
        <translation>显存是显卡上的内存。训练任务的峰值需求一旦超过可用显存，就会因“显存不足”（out of memory）错误而中止。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="76"/>
        <source>Training time assumes the GPU runs at the typical efficiency given in the sources below, with the data loading keeping up.</source>
        <translation>训练时间假设 GPU 以下方资料来源给出的典型效率运行，并且数据加载跟得上。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="85"/>
        <source>{jobs}: {assumption}</source>
        <translation>{jobs}：{assumption}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="99"/>
        <location filename="../../gpucheck/report/build.py" line="118"/>
        <location filename="../../gpucheck/report/build.py" line="111"/>
        <location filename="../../gpucheck/report/build.py" line="115"/>
        <source>{name}: {source} (as of {date})</source>
        <translation>{name}：{source}（截至 {date}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="105"/>
        <source>{name}: {source}</source>
        <translation>{name}：{source}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="125"/>
        <source>VRAM (video memory)</source>
        <translation>显存（VRAM）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="126"/>
        <source>The memory on the graphics card. The model, its gradients, the optimizer state and the activations of a batch must all fit in it at the same time.</source>
        <translation>显卡上的内存。模型、梯度、优化器状态以及一个批次的激活值必须同时装进显存。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="128"/>
        <source>The graphics card's processor. Training runs on it many times faster than on the CPU.</source>
        <translation>显卡上的处理器。在它上面训练比在 CPU 上快很多倍。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="129"/>
        <source>CUDA / ROCm / Metal</source>
        <translation>CUDA / ROCm / Metal</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="130"/>
        <source>The software layers through which training frameworks use NVIDIA (CUDA), AMD (ROCm) and Apple (Metal) GPUs.</source>
        <translation>训练框架调用 NVIDIA（CUDA）、AMD（ROCm）和 Apple（Metal）GPU 所依赖的软件层。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="132"/>
        <source>Mixed precision (FP16 / BF16)</source>
        <translation>混合精度（FP16 / BF16）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="133"/>
        <source>Computing in 16-bit numbers instead of 32-bit: about half the memory for activations and much faster on GPUs with tensor cores. BF16 needs an RTX 30-series, A100 or newer.</source>
        <translation>用 16 位数代替 32 位数计算：激活值占用的显存大约减半，在带 Tensor Core 的 GPU 上还会快很多。BF16 需要 RTX 30 系列、A100 或更新的显卡。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="135"/>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="135"/>
        <source>How many samples the GPU processes in one step. Larger batches need more VRAM.</source>
        <translation>GPU 每一步处理的样本数。批越大，需要的显存越多。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="136"/>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="137"/>
        <source>Adding up the gradients of several small batches before each update: the effect of a large batch with the memory of a small one, at the same speed per sample.</source>
        <translation>先把几个小批次的梯度累加起来再更新一次参数：用小批次的显存得到大批次的效果，每个样本的速度不变。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="139"/>
        <source>Gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="140"/>
        <source>Keeping only some activations and recomputing the rest when needed: much less VRAM for about 20–30% more training time.</source>
        <translation>只保存一部分激活值，其余的在需要时重新计算：显存占用大幅减少，训练时间大约增加 20–30%。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="143"/>
        <source>Fine-tuning only small added matrices instead of the whole model: far fewer gradients and optimizer state, so far less VRAM.</source>
        <translation>只微调额外加入的小矩阵，而不是整个模型：梯度和优化器状态少得多，所需显存也少得多。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="146"/>
        <source>LoRA on a model whose weights are stored in 4 bits: a large model fits on a consumer GPU.</source>
        <translation>在权重以 4 位存储的模型上做 LoRA：大模型也能装进消费级显卡。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="148"/>
        <source>What the optimizer remembers per parameter. AdamW keeps two numbers per parameter; 8-bit AdamW stores them in a quarter of the space.</source>
        <translation>优化器为每个参数记录的数据。AdamW 为每个参数保存两个数；8 位 AdamW 只需四分之一的空间。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="150"/>
        <source>Epoch</source>
        <translation>轮（epoch）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="150"/>
        <source>One pass over the whole training data set.</source>
        <translation>把整个训练数据集完整过一遍。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="151"/>
        <source>Out of memory (OOM)</source>
        <translation>显存不足（OOM）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="152"/>
        <source>The error a job stops with when it needs more VRAM than the GPU has.</source>
        <translation>训练任务需要的显存超过显卡现有的显存时报出的错误，任务会因此中止。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="163"/>
        <source>{count} × {gpu} — {ram} RAM</source>
        <translation>{count} × {gpu} — {ram} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="165"/>
        <source>No GPU for training found — {ram} RAM</source>
        <translation>未找到可用于训练的 GPU — {ram} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="171"/>
        <source>No training jobs were checked.</source>
        <translation>没有检查任何训练任务。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="177"/>
        <source>Of {total} training jobs checked, {runs} run as they are, {tight} may just fit (tight), {tweaks} run after changing settings, and {no} do not fit or are too slow on this computer.</source>
        <translation>检查了 {total} 个训练任务：{runs} 个按原设置即可运行，{tight} 个很紧（可能装得下），{tweaks} 个调整设置后可运行，{no} 个在这台电脑上装不下或太慢。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="185"/>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="186"/>
        <source>Graphics cards</source>
        <translation>显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="187"/>
        <source>What the scan found</source>
        <translation>扫描结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="188"/>
        <source>The training ladder</source>
        <translation>训练任务难度阶梯</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="189"/>
        <source>Training jobs in detail</source>
        <translation>训练任务详情</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="190"/>
        <source>Settings to change</source>
        <translation>需要修改的设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="191"/>
        <source>The same changes as code (Hugging Face Transformers)</source>
        <translation>同样的修改写成代码（Hugging Face Transformers）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="192"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="165"/>
        <source>Optional: finish sooner</source>
        <translation>可选：更快完成</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="193"/>
        <source>Their settings, to copy (Hugging Face names)</source>
        <translation>它们的设置，可直接复制（Hugging Face 参数名）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="194"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="166"/>
        <source>What fits instead: another method or a smaller model</source>
        <translation>能装下的替代方案（换一种训练方式或更小的模型）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="195"/>
        <source>Its settings as code (Hugging Face Transformers)</source>
        <translation>它的设置写成代码（Hugging Face Transformers）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="196"/>
        <source>Software to fix (for every job)</source>
        <translation>需要修复的软件（对所有任务）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="197"/>
        <source>What slows it down</source>
        <translation>拖慢速度的因素</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="198"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="169"/>
        <source>Upgrades</source>
        <translation>升级</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="199"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="170"/>
        <source>Rent a cloud GPU</source>
        <translation>租用云 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="200"/>
        <source>Buy or rent?</source>
        <translation>买还是租？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="201"/>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="202"/>
        <source>Assumptions</source>
        <translation>假设</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="203"/>
        <source>Sources of the numbers</source>
        <translation>数据来源</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="204"/>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="210"/>
        <source>Nothing to report.</source>
        <translation>没有需要报告的内容。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="211"/>
        <source>Nothing to change: it runs with the settings above.</source>
        <translation>无需修改：按上面的设置就能运行。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="212"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="87"/>
        <source>No change of settings is enough here; see the upgrades and cloud GPUs below.</source>
        <translation>光改设置不够；请看下面的升级或租用云 GPU 的做法。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="214"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="171"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="215"/>
        <source>Area</source>
        <translation>方面</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="216"/>
        <source>Finding</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="217"/>
        <source>None.</source>
        <translation>无。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="218"/>
        <source>Page {page} of {pages}</source>
        <translation>第 {page} 页，共 {pages} 页</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="240"/>
        <source>unknown paper size '{paper}' (expected a4 or letter)</source>
        <translation>未知的纸张大小 '{paper}'（应为 a4 或 letter）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="248"/>
        <source>Can this computer train AI models?</source>
        <translation>这台电脑能训练 AI 模型吗？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="250"/>
        <source>Report made on {date} with gpucheck {version}</source>
        <translation>报告由 gpucheck {version} 于 {date} 生成</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="265"/>
        <source>gpucheck report — {subtitle}</source>
        <translation>gpucheck 报告 — {subtitle}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="266"/>
        <source>Estimates, not measurements.</source>
        <translation>以上为估算，并非实测。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="267"/>
        <source>Estimates, except figures marked "measured" (trial runs on this computer).</source>
        <translation>以上为估算；标有“实测”的数字来自在本机的试运行。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="274"/>
        <source>The ladder goes from the easiest job (level 1) to the hardest. Memory reads "as configured → with the changes"; the time is that of the settings with the changes (the ones the verdict is for), on this computer.</source>
        <translation>难度阶梯从最简单的任务（第 1 级）排到最难的。显存一栏写作“按当前设置 → 调整后”；时间是调整后设置（也就是结论所指的设置）在这台电脑上的时间。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/build.py" line="282"/>
        <source>gpucheck estimates from published figures. Check the prices on the provider's page before you rent or buy: they change every month.</source>
        <translation>gpucheck 根据公开数据进行估算。租用或购买前请到服务商的页面核实价格：价格每个月都会变。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="173"/>
        <source>{have} of RAM</source>
        <translation>{have} 内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="175"/>
        <source>{have} usable of {installed}</source>
        <translation>{installed} 中可用 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="183"/>
        <source>{need} → {after} of {have}</source>
        <translation>{need} → {after}，可用 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="186"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="357"/>
        <location filename="../../gpucheck/ui/widgets/vram_bar.py" line="66"/>
        <location filename="../../gpucheck/ui/widgets/vram_bar.py" line="62"/>
        <source>needs {need} of {have}</source>
        <translation>需要 {need}，可用 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="188"/>
        <location filename="../../gpucheck/ui/widgets/vram_bar.py" line="62"/>
        <source>RAM: {text}</source>
        <translation>内存 {text}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="190"/>
        <source>{text} · too little RAM</source>
        <translation>{text} · 内存不够</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="202"/>
        <source>RAM {need} / {have}</source>
        <translation>内存 {need} / {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="211"/>
        <source>{disk} of disk space ({env} of it for Python, PyTorch and its libraries)</source>
        <translation>{disk} 硬盘空间（其中 {env} 用于 Python、PyTorch 及其依赖库）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="213"/>
        <source>{disk} of disk space</source>
        <translation>{disk} 硬盘空间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="232"/>
        <source>System RAM needed</source>
        <translation>需要的内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="232"/>
        <source>Video memory needed per GPU</source>
        <translation>每块 GPU 需要的显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="239"/>
        <source>{need} as configured → at least {after} with every change tried</source>
        <translation>按当前设置 {need} → 试过所有调整后至少 {after}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="241"/>
        <source>{need} as configured → {after} with the changes</source>
        <translation>按当前设置 {need} → 调整后 {after}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="245"/>
        <source>{peak} measured peak (estimated {need})</source>
        <translation>实测峰值 {peak}（估算为 {need}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="248"/>
        <source>{need} as configured</source>
        <translation>按当前设置 {need}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="249"/>
        <source>{needs}; there is {have}.</source>
        <translation>{needs}；现有 {have}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="251"/>
        <source>{text} The system RAM is what it runs short of.</source>
        <translation>{text}不够的是内存。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="257"/>
        <location filename="../../gpucheck/report/measured.py" line="241"/>
        <source>{what}: {value}</source>
        <translation>{what}：{value}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="274"/>
        <source>none: this hardware's software cannot train it.</source>
        <translation>无，这台电脑的软件环境不支持训练这个任务。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="276"/>
        <source>none: it does not fit here, not even with the changes.</source>
        <translation>无，即使调整后在这里也装不下。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="277"/>
        <source>none: it does not fit here.</source>
        <translation>无，在这里装不下。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="278"/>
        <source>{time} as configured</source>
        <translation>按当前设置 {time}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="279"/>
        <source>none as configured (it does not fit)</source>
        <translation>按当前设置无（装不下）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="282"/>
        <source>{time} with the changes</source>
        <translation>调整后 {time}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="283"/>
        <source>{before} → {after}</source>
        <translation>{before} → {after}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="288"/>
        <source>Training time: {time}</source>
        <translation>训练时间：{time}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="314"/>
        <source>{range}, estimate {time}</source>
        <translation>{range}，估算 {time}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="321"/>
        <source>eager PyTorch (a plain training loop or the Hugging Face Trainer)</source>
        <translation>PyTorch 即时执行（eager，普通训练循环或 Hugging Face Trainer）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="322"/>
        <source>fused / compiled kernels</source>
        <translation>融合 / 编译算子</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="323"/>
        <source>hand-tuned CUDA (llm.c)</source>
        <translation>手写优化 CUDA（llm.c）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="324"/>
        <source>Unsloth (its Triton kernels, checkpoints kept in CPU RAM)</source>
        <translation>Unsloth（用它的 Triton 内核，激活检查点放在 CPU 内存里）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="333"/>
        <source>Data set: a budget of {tokens} tokens, about {rows} rows of {seq} tokens seen in training (changing the samples or epochs replaces the budget).</source>
        <translation>数据集：按 {tokens} 个 token 的预算训练，约合 {rows} 行、每行 {seq} 个 token（改动样本数或轮数会取代这个预算）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="337"/>
        <source>Data set: {samples} samples × {epochs} epochs = {total} samples seen in training.</source>
        <translation>数据集：{samples} 个样本 × {epochs} 轮 = 训练中共处理 {total} 个样本。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="350"/>
        <source>Likely with the changes: {range} (calibrated on this PC: about 8 in 10 jobs such a calibration did not measure ran inside such a range), assuming {stack}.</source>
        <translation>按建议修改后可能为 {range}（已在本机校准：这样的校准没有实测过的任务约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="352"/>
        <source>Likely with this PC's CPU and disk limits: {range} (calibrated on this PC: about 8 in 10 jobs such a calibration did not measure ran inside such a range), assuming {stack}.</source>
        <translation>计入本机 CPU 和硬盘的限制后可能为 {range}（已在本机校准：这样的校准没有实测过的任务约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="355"/>
        <source>Likely {range} (calibrated on this PC: about 8 in 10 jobs such a calibration did not measure ran inside such a range), assuming {stack}.</source>
        <translation>可能为 {range}（已在本机校准：这样的校准没有实测过的任务约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="357"/>
        <source>Likely with the changes: {range} (about 8 in 10 published runs fell inside such a range), assuming {stack}.</source>
        <translation>按建议修改后可能为 {range}（公开的实测运行约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="359"/>
        <source>Likely with this PC's CPU and disk limits: {range} (about 8 in 10 published runs fell inside such a range), assuming {stack}.</source>
        <translation>计入本机 CPU 和硬盘的限制后可能为 {range}（公开的实测运行约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="361"/>
        <source>Likely {range} (about 8 in 10 published runs fell inside such a range), assuming {stack}.</source>
        <translation>可能为 {range}（公开的实测运行约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="364"/>
        <source>Likely with the changes: {range}, a wide range no published run of this kind has checked yet, assuming {stack}.</source>
        <translation>按建议修改后可能为 {range}，这个范围较宽，尚无同类公开实测运行检验过，假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="366"/>
        <source>Likely with this PC's CPU and disk limits: {range}, a wide range no published run of this kind has checked yet, assuming {stack}.</source>
        <translation>计入本机 CPU 和硬盘的限制后可能为 {range}，这个范围较宽，尚无同类公开实测运行检验过，假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="368"/>
        <source>Likely {range}, a wide range no published run of this kind has checked yet, assuming {stack}.</source>
        <translation>可能为 {range}，这个范围较宽，尚无同类公开实测运行检验过，假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="378"/>
        <source>Assumes {stack}.</source>
        <translation>假设使用{stack}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="390"/>
        <source>{range}; assumes {stack}</source>
        <translation>{range}；假设使用{stack}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="401"/>
        <source>switch to: {title}</source>
        <translation>改用：{title}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="403"/>
        <location filename="../../gpucheck/report/figures.py" line="406"/>
        <source>close other programs, or lower the micro-batch or the sequence length</source>
        <translation>关闭其他程序，或减小微批次或序列长度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="407"/>
        <source>close other programs, or lower the micro-batch</source>
        <translation>关闭其他程序，或减小微批次</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="408"/>
        <source>close other programs, or lower the sequence length</source>
        <translation>关闭其他程序，或缩短序列长度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="409"/>
        <source>close other programs first</source>
        <translation>先关闭其他程序</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="410"/>
        <source>try it; if it runs out of memory, {fix}</source>
        <translation>先试试；如果显存或内存不足（OOM），{fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="416"/>
        <source>May fit — {advice}.</source>
        <translation>可能装得下——{advice}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="436"/>
        <source>Even with every change tried it needs at least {after}; there is {have}.</source>
        <translation>即使试过所有修改，仍至少需要 {after}；现有 {have}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="438"/>
        <source>With these changes: {caption}; {time}.</source>
        <translation>按这些修改：{caption}；{time}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="444"/>
        <source>Model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="450"/>
        <source>Python, libraries and data loading</source>
        <translation>Python、程序库和数据加载</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="454"/>
        <source>fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="454"/>
        <source>tight: may fit</source>
        <translation>很紧，可能装得下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="454"/>
        <source>does not fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="481"/>
        <source>It runs as it is, but its steps are too small to keep the GPU busy. Each of these changes, on its own, finishes it sooner.</source>
        <translation>不改设置也能运行，但每步的工作量太小，GPU 吃不满。下面每项修改单独使用，都能让它更快完成。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/figures.py" line="483"/>
        <source>It runs as it is. Each of these changes, on its own, finishes it sooner.</source>
        <translation>不改设置也能运行。下面每项修改单独使用，都能让它更快完成。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="89"/>
        <source>{used} (the job sets {set})</source>
        <translation>{used}（任务设置为 {set}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="97"/>
        <source>batch {n}</source>
        <translation>微批次 {n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="99"/>
        <source>sequence length {n}</source>
        <translation>序列长度 {n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="101"/>
        <source>image size {n}</source>
        <translation>图像尺寸 {n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="104"/>
        <source>gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="106"/>
        <source>gradient accumulation ×{n}</source>
        <translation>梯度累积 ×{n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="115"/>
        <source>LoRA on {targets}</source>
        <translation>LoRA 作用于{targets}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="118"/>
        <source>DeepSpeed ZeRO-{n}</source>
        <translation>DeepSpeed ZeRO-{n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="120"/>
        <source>CPU offload</source>
        <translation>卸载到 CPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="122"/>
        <source>sequence packing</source>
        <translation>序列打包</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="155"/>
        <location filename="../../gpucheck/ui/pages/jobs_ladder.py" line="36"/>
        <source>RAM: as configured → with the changes</source>
        <translation>内存：按当前设置 → 调整后</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="156"/>
        <location filename="../../gpucheck/ui/pages/jobs_ladder.py" line="37"/>
        <source>VRAM: as configured → with the changes</source>
        <translation>显存：按当前设置 → 调整后</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="157"/>
        <location filename="../../gpucheck/ui/pages/jobs_ladder.py" line="39"/>
        <source>Training job</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="157"/>
        <location filename="../../gpucheck/ui/pages/jobs_ladder.py" line="38"/>
        <source>Time (with the changes)</source>
        <translation>时间（调整后）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="169"/>
        <source>As configured it needs {need} per GPU; the video memory available is unknown.</source>
        <translation>按当前设置每块 GPU 需要 {need}；可用显存未知。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="172"/>
        <source>As configured it needs {need} of the {have} available per GPU.</source>
        <translation>按当前设置每块 GPU 需要 {need}，可用 {have}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="175"/>
        <source>As configured it needs {need} but only {have} is available per GPU: {missing} short.</source>
        <translation>按当前设置每块 GPU 需要 {need}，但只有 {have} 可用：差 {missing}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="177"/>
        <source>Video memory (VRAM) per GPU, as configured</source>
        <translation>每块 GPU 的显存（按当前设置）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="178"/>
        <source>Needed</source>
        <translation>需要</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="178"/>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="193"/>
        <source>{date}, unverified</source>
        <translation>{date}，未核实</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="193"/>
        <source>{date} (unverified)</source>
        <translation>{date}（未核实）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="203"/>
        <location filename="../../gpucheck/report/job_section.py" line="211"/>
        <location filename="../../gpucheck/report/job_section.py" line="228"/>
        <source>Change</source>
        <translation>修改</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="203"/>
        <location filename="../../gpucheck/report/job_section.py" line="228"/>
        <source>What it costs</source>
        <translation>代价</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="203"/>
        <source>VRAM after</source>
        <translation>修改后显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="203"/>
        <source>Time after</source>
        <translation>修改后时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="211"/>
        <source>Trade-off</source>
        <translation>代价</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="211"/>
        <source>VRAM with it</source>
        <translation>改后显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="211"/>
        <source>Time with it</source>
        <translation>改后时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="240"/>
        <location filename="../../gpucheck/report/machine_section.py" line="136"/>
        <source>Part</source>
        <translation>部件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="240"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="240"/>
        <source>Job time with it</source>
        <translation>升级后的任务时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="240"/>
        <location filename="../../gpucheck/report/job_section.py" line="263"/>
        <source>Price date</source>
        <translation>价格日期</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="250"/>
        <location filename="../../gpucheck/report/job_section.py" line="277"/>
        <location filename="../../gpucheck/report/job_section.py" line="331"/>
        <location filename="../../gpucheck/report/option_points.py" line="91"/>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="148"/>
        <location filename="../../gpucheck/ui/session.py" line="373"/>
        <source>{n} × {gpu}</source>
        <translation>{n} × {gpu}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="258"/>
        <source>Also used there</source>
        <translation>国内还有</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="259"/>
        <source>{sites}. Prices not listed: check on the site (not verified)</source>
        <translation>{sites}。未列出价格，请到官网查看（未核实）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="262"/>
        <location filename="../../gpucheck/report/option_points.py" line="110"/>
        <source>Option</source>
        <translation>方案</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="262"/>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="262"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="262"/>
        <source>Per GPU-hour</source>
        <translation>卡·时单价</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="263"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="172"/>
        <source>Good to know</source>
        <translation>注意事项</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="274"/>
        <source>{verdict} — {advice}.</source>
        <translation>{verdict}——{advice}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="276"/>
        <source>Settings as configured</source>
        <translation>当前设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="277"/>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="278"/>
        <source>the CPU (no usable GPU)</source>
        <translation>CPU（没有可用的 GPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="280"/>
        <source>RAM needed</source>
        <translation>所需内存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="281"/>
        <source>Disk space needed</source>
        <translation>所需硬盘空间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="282"/>
        <source>Speed as configured</source>
        <translation>按当前设置的速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="283"/>
        <location filename="../../gpucheck/report/job_section.py" line="300"/>
        <source>Training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="284"/>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="284"/>
        <source>{samples} samples × {epochs} epochs</source>
        <translation>{samples} 个样本 × {epochs} 轮</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="288"/>
        <source>Likely time with the changes (P10–P90)</source>
        <translation>按建议修改后的可能用时（P10–P90）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="289"/>
        <source>Likely time with this PC's CPU and disk limits (P10–P90)</source>
        <translation>计入本机 CPU 和硬盘限制的可能用时（P10–P90）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="290"/>
        <source>Likely time (P10–P90)</source>
        <translation>可能用时（P10–P90）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="296"/>
        <source>Based on</source>
        <translation>依据</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="296"/>
        <source>speeds measured on this computer</source>
        <translation>在这台电脑上实测的速度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="301"/>
        <location filename="../../gpucheck/trial/__init__.py" line="245"/>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="401"/>
        <source>Measured on this PC</source>
        <translation>已在本机实测</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="307"/>
        <source>{problem} What to do: {fix}</source>
        <translation>{problem}解决办法：{fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="314"/>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="314"/>
        <source>Estimate and measurement</source>
        <translation>估算值与实测值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="325"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="82"/>
        <source>Settings tried: not enough on this GPU</source>
        <translation>试过的设置：在这块显卡上仍然不够</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="332"/>
        <location filename="../../gpucheck/ui/session.py" line="371"/>
        <source>this PC's CPU</source>
        <translation>本机的 CPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/job_section.py" line="334"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="173"/>
        <source>Your options for this job: time against money</source>
        <translation>这个任务的几种做法：时间与花费</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="18"/>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="19"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="35"/>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="21"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="22"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="30"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="31"/>
        <location filename="../../gpucheck/report/machine_section.py" line="88"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="30"/>
        <source>Memory (RAM)</source>
        <translation>内存（RAM）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="32"/>
        <location filename="../../gpucheck/report/machine_section.py" line="113"/>
        <source>Disk</source>
        <translation>硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="33"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="32"/>
        <source>Power</source>
        <translation>电源</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="34"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="33"/>
        <source>Software</source>
        <translation>软件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="35"/>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="47"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="61"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="37"/>
        <source>unknown kind</source>
        <translation>未知类型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="73"/>
        <source>Computer name</source>
        <translation>计算机名</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="76"/>
        <source>{os} (WSL)</source>
        <translation>{os}（WSL）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="77"/>
        <source>Operating system</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="79"/>
        <source>{physical} cores / {logical} threads</source>
        <translation>{physical} 核 / {logical} 线程</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="82"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="29"/>
        <source>Processor (CPU)</source>
        <translation>处理器（CPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="84"/>
        <source>{total} total, {available} free when scanned</source>
        <translation>共 {total}，扫描时可用 {available}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="87"/>
        <source>{ram} (shared with the GPU)</source>
        <translation>{ram}（与 GPU 共享）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="91"/>
        <location filename="../../gpucheck/report/machine_section.py" line="95"/>
        <source>Graphics (GPU)</source>
        <translation>显卡（GPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="91"/>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="94"/>
        <source> (used for training)</source>
        <translation>（用于训练）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="95"/>
        <source>{name}, {vram} video memory, {backend}{mark}</source>
        <translation>{name}，{vram} 显存，{backend}{mark}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="100"/>
        <source>NVIDIA driver {v}</source>
        <translation>NVIDIA 驱动 {v}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="102"/>
        <source>CUDA {v} supported by the driver</source>
        <translation>驱动支持 CUDA {v}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="104"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="317"/>
        <source>ROCm {v}</source>
        <translation>ROCm {v}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="106"/>
        <source>GPU software</source>
        <translation>GPU 软件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="109"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="321"/>
        <source>can use the GPU</source>
        <translation>可以使用 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="109"/>
        <location filename="../../gpucheck/ui/machine_view.py" line="321"/>
        <source>cannot use the GPU</source>
        <translation>无法使用 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="111"/>
        <source>AI framework</source>
        <translation>AI 框架</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="113"/>
        <source>{mount}: {kind}, {free} free of {total}</source>
        <translation>{mount}：{kind}，可用 {free}，共 {total}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="120"/>
        <source>{kind}, running on battery</source>
        <translation>{kind}，正在使用电池供电</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="121"/>
        <source>Computer type</source>
        <translation>电脑类型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="123"/>
        <location filename="../../gpucheck/report/machine_section.py" line="126"/>
        <source>Power supply</source>
        <translation>电源</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="123"/>
        <source>redundant supplies sized by the server's vendor (estimated peak {peak})</source>
        <translation>冗余电源，由服务器厂商选定（估算峰值 {peak}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="126"/>
        <source>at least {w} W recommended (estimated peak {peak})</source>
        <translation>建议至少 {w} W（估算峰值 {peak}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="131"/>
        <source>Measured (deep scan)</source>
        <translation>实测（深度扫描）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="134"/>
        <source>Scanned</source>
        <translation>扫描时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="134"/>
        <source>{when} by gpucheck {version}</source>
        <translation>{when}，由 gpucheck {version} 扫描</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="136"/>
        <source>What this computer has</source>
        <translation>这台电脑的配置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="142"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="406"/>
        <source>Video memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="142"/>
        <source>Free memory</source>
        <translation>可用显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="142"/>
        <source>Compute API</source>
        <translation>计算接口</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="142"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/machine_section.py" line="144"/>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="150"/>
        <source>Does not fit here — measured</source>
        <translation>本机装不下（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="151"/>
        <source>{verdict} — measured</source>
        <translation>{verdict}（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="157"/>
        <source>Measured on this PC ({device}): micro-batch {batch}, {steps} timed steps after one warm-up.</source>
        <translation>已在本机实测（{device}）：微批次 {batch}，1 个预热步之后 {steps} 个计时训练步。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="158"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="314"/>
        <source>unknown device</source>
        <translation>未知设备</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="160"/>
        <source>Does not fit here — measured: out of memory at micro-batch {b}; the largest micro-batch that fit is {fits}.</source>
        <translation>本机装不下（实测）：微批次 {b} 时内存不足；能装下的最大微批次为 {fits}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="163"/>
        <source>Does not fit here — measured: out of memory even at micro-batch 1.</source>
        <translation>本机装不下（实测）：微批次为 1 时仍然内存不足。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="164"/>
        <source>Does not fit here — measured: out of memory at micro-batch {b}.</source>
        <translation>本机装不下（实测）：微批次 {b} 时内存不足。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="173"/>
        <source>Measured on this PC: the whole run takes about {time} at the measured speed (estimated {estimate}), too slow to be practical here.</source>
        <translation>本机实测：按实测速度，完整训练约需 {time}（估算为 {estimate}），在本机太慢，不实用。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="176"/>
        <source>Runs on this PC — measured: the whole run takes about {time} at the measured speed (estimated {estimate}).</source>
        <translation>本机可以运行（实测）：按实测速度，完整训练约需 {time}（估算为 {estimate}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="184"/>
        <source>{n} samples per second measured (estimated {estimate})</source>
        <translation>实测每秒 {n} 个样本（估算为 {estimate}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="189"/>
        <source>{n} samples per second</source>
        <translation>每秒 {n} 个样本</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="208"/>
        <source>A trial of "{job}" measured this PC {n}× slower than estimated: the other estimates here are not corrected for it.</source>
        <translation>“{job}”的试运行实测：本机耗时是估算的 {n} 倍。这里的其他估算没有据此修正。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="210"/>
        <source>A trial of "{job}" measured this PC {n}× faster than estimated: the other estimates here are not corrected for it.</source>
        <translation>“{job}”的试运行实测：本机速度是估算的 {n} 倍。这里的其他估算没有据此修正。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="216"/>
        <source>{measured} measured · {estimated} estimated</source>
        <translation>实测 {measured} · 估算 {estimated}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="222"/>
        <source>Peak RAM</source>
        <translation>内存峰值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="222"/>
        <source>Peak video memory</source>
        <translation>显存峰值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="226"/>
        <source>At micro-batch {b}</source>
        <translation>微批次 {b} 时</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="227"/>
        <source>{step} per step, {sps} samples/s, peak {peak} — measured</source>
        <translation>每步 {step}，{sps} 样本/秒，峰值 {peak}（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="230"/>
        <source>Step time</source>
        <translation>每步耗时</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="231"/>
        <location filename="../../gpucheck/trial/command.py" line="91"/>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="85"/>
        <source>Samples per second</source>
        <translation>每秒样本数</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="233"/>
        <source>Whole run at the measured speed</source>
        <translation>按实测速度的整个训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="247"/>
        <source>{text} · out of memory (measured)</source>
        <translation>{text} · 内存不足（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="248"/>
        <source>{text} · measured peak {peak}</source>
        <translation>{text} · 实测峰值 {peak}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="255"/>
        <source>{time} measured</source>
        <translation>{time}（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="261"/>
        <source>none as configured: it ran out of memory here (measured).</source>
        <translation>无，按当前设置在本机内存不足（实测）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="262"/>
        <source>{time} measured (estimated {estimate})</source>
        <translation>实测 {time}（估算 {estimate}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/measured.py" line="269"/>
        <source>At the speed measured on this PC; estimated {time}</source>
        <translation>按本机实测速度计算；估算为 {time}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="51"/>
        <source>nothing to buy</source>
        <translation>无需购买</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="57"/>
        <source>price unknown</source>
        <translation>价格未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="59"/>
        <source>{target}, measured</source>
        <translation>{target}（实测）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="62"/>
        <source>{target}, as configured</source>
        <translation>{target}，按当前设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="67"/>
        <source>{target}, with the changes</source>
        <translation>{target}，调整后</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="87"/>
        <source>Buy {part}</source>
        <translation>购买 {part}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="93"/>
        <source>Use {gpus} free on {provider}</source>
        <translation>在 {provider} 免费使用 {gpus}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="94"/>
        <source>Rent {gpus} on {provider}</source>
        <translation>在 {provider} 租用 {gpus}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="99"/>
        <source>{cost} for the whole run</source>
        <translation>整个训练 {cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="110"/>
        <source>Time (log scale)</source>
        <translation>时间（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/report/option_points.py" line="110"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/scan_command.py" line="55"/>
        <source>Scanning</source>
        <translation>正在扫描</translation>
    </message>
    <message>
        <location filename="../../gpucheck/scan_command.py" line="69"/>
        <source>Saved the scan to {path}</source>
        <translation>扫描结果已保存到 {path}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="28"/>
        <source>is a folder, not a TOML file</source>
        <translation>这是一个文件夹，不是 TOML 文件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="29"/>
        <source>not a text file (expected TOML)</source>
        <translation>不是文本文件（应为 TOML）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="33"/>
        <source>{path}: not valid TOML ({reason})</source>
        <translation>{path}：不是有效的 TOML（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="36"/>
        <source>{path}: not valid TOML (nested too deeply)</source>
        <translation>{path}：不是有效的 TOML（嵌套太深）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="38"/>
        <source>{path}: not valid TOML (a number with more than 4300 digits)</source>
        <translation>{path}：不是有效的 TOML（有超过 4300 位的数字）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="46"/>
        <source>a list of strings</source>
        <translation>字符串列表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="46"/>
        <source>a list of numbers above 0</source>
        <translation>大于 0 的数字列表</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="86"/>
        <source>{kind} between {lo} and {hi}</source>
        <translation>{lo} 到 {hi} 之间的{kind}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="88"/>
        <source>{kind} ≥ {lo}</source>
        <translation>≥ {lo} 的{kind}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="91"/>
        <source>{where}: key '{key}': expected {what}, got {got}</source>
        <translation>{where}：键“{key}”应为{what}，实际是 {got}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/tomldata.py" line="143"/>
        <source>{where}: missing key '{key}' ({what})</source>
        <translation>{where}：缺少键“{key}”（{what}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="39"/>
        <source>starting PyTorch</source>
        <translation>启动 PyTorch</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="39"/>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="332"/>
        <source>building the model</source>
        <translation>构建模型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="39"/>
        <source>the warm-up step</source>
        <translation>预热步</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="40"/>
        <source>the timed steps</source>
        <translation>计时训练步</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="40"/>
        <source>looking for a micro-batch that fits</source>
        <translation>寻找装得下的微批次</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="161"/>
        <source>Peak RAM (GiB)</source>
        <translation>内存峰值（GiB）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="161"/>
        <source>Peak memory PyTorch holds (GiB)</source>
        <translation>PyTorch 占用的显存峰值（GiB）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="176"/>
        <source>No Python with PyTorch was found on this PC; install it with: {cmd} (or give one with --python PATH)</source>
        <translation>本机没有找到装了 PyTorch 的 Python。安装命令为 {cmd}（或用 --python PATH 指定一个）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="248"/>
        <source>Does not fit here — measured: out of memory at micro-batch {b}; micro-batch {fits} fits</source>
        <translation>本机装不下（实测）：微批次 {b} 时内存不足，微批次 {fits} 可以运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="251"/>
        <source>Does not fit here — measured: out of memory even at micro-batch 1</source>
        <translation>本机装不下（实测）：即使微批次为 1 也内存不足</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="252"/>
        <source>Does not fit here — measured: out of memory at micro-batch {b}</source>
        <translation>本机装不下（实测）：微批次 {b} 时内存不足</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="259"/>
        <source>The trial did not finish within {s} s (stopped while {phase}); nothing was measured</source>
        <translation>试运行未能在 {s} 秒内完成（停在“{phase}”阶段），没有测到结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="263"/>
        <source>Cancelled; the trial's processes were stopped</source>
        <translation>已取消，试运行的进程都已停止</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="266"/>
        <source>{python} cannot be started: {error}</source>
        <translation>无法启动 {python}（{error}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="271"/>
        <source>The trial's process was killed (signal {n}) before it finished</source>
        <translation>试运行的进程在完成前被终止（信号 {n}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="273"/>
        <source>{python} did not run the trial: it is not a working Python 3 (exit code {code})</source>
        <translation>{python} 没有运行试运行，它不是可用的 Python 3（退出码 {code}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="276"/>
        <source>The trial's process stopped before it finished (exit code {code})</source>
        <translation>试运行的进程在完成前退出（退出码 {code}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="280"/>
        <source>Cannot run this job here: {why}</source>
        <translation>本机无法运行这个任务（{why}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/__init__.py" line="280"/>
        <source>The trial failed: {error}</source>
        <translation>试运行失败（{error}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="148"/>
        <source>Other programs had the processor during the timed steps (the trial's threads ran about {n} % of the time): this PC is faster than measured, and this trial was not used to calibrate it; close other programs and run it again</source>
        <translation>计时的训练步期间其他程序占用了处理器（试跑的线程只运行了约 {n}% 的时间）：本机实际比测得的更快，本次试跑未用于校准；请关闭其他程序后重新试跑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="151"/>
        <source>Other programs had the processor during the timed steps (the trial's thread ran about {n} % of the time): this PC is faster than measured; its calibration uses the processor time the steps took</source>
        <translation>计时的训练步期间其他程序占用了处理器（试跑的线程只运行了约 {n}% 的时间）：本机实际比测得的更快；校准采用训练步实际占用的处理器时间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="161"/>
        <source>The optimizer stepped PyTorch's per-tensor loop, slower than a fused step; the estimate prices the same step</source>
        <translation>优化器以 PyTorch 的逐张量循环方式更新，比融合实现慢；估算按同样的方式计算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="332"/>
        <source>other programs had the processor during its steps (its threads ran about {n} % of the time), so it was not used</source>
        <translation>其训练步期间其他程序占用了处理器（线程只运行了约 {n}% 的时间），因此未采用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="349"/>
        <source>No Python with PyTorch was found on this PC; give one with --python PATH</source>
        <translation>本机上没有找到装有 PyTorch 的 Python；请用 --python PATH 指定一个</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="372"/>
        <source>{module} is not installed in {python}</source>
        <translation>{python} 中没有安装 {module}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="376"/>
        <source>This PC was busy while it was measured (the steps had about {n} % of the processor): close other programs and run gpucheck calibrate again</source>
        <translation>实测时本机正忙（训练步只用到约 {n}% 的处理器）：请关闭其他程序后重新运行 gpucheck calibrate</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="380"/>
        <source>Nothing could be measured: {why}</source>
        <translation>没有测到任何结果：{why}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="380"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="386"/>
        <source>this PC's CPU could not be identified, so the calibration cannot be kept for it</source>
        <translation>无法识别本机的 CPU，因此无法为本机保存校准结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/calibrate.py" line="388"/>
        <source>could not save the calibration: {error}</source>
        <translation>无法保存校准结果：{error}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="38"/>
        <source>{flag}: a trial runs plain PyTorch on one device; give this option to 'gpucheck estimate' instead</source>
        <translation>{flag}：试运行只在一台设备上运行普通 PyTorch；请把这个选项用于“gpucheck estimate”</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="42"/>
        <source>{flag}: a trial runs full rows of --seq-len tokens; give this option to 'gpucheck estimate' instead</source>
        <translation>{flag}：试运行按 --seq-len 的完整长度构造每一行；请把这个选项交给 'gpucheck estimate'</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="44"/>
        <source>{flag}: a trial times micro-batches, each with its own optimizer step (accumulation only steps the optimizer less often); give this option to 'gpucheck estimate' instead</source>
        <translation>{flag}：试运行按微批次计时，每个微批次都更新一次优化器（梯度累积只是让优化器更新得少一些）；请把这个选项交给 'gpucheck estimate'</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="54"/>
        <source>timed steps after the warm-up (default: as many as fit in --max-seconds)</source>
        <translation>预热之后的计时训练步数（默认：--max-seconds 内能跑多少就跑多少）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="57"/>
        <source>time for the timed steps (default: 30)</source>
        <translation>计时训练步的时长，单位秒（默认 30）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="60"/>
        <source>a saved scan of this PC for the estimate beside it</source>
        <translation>本机保存的扫描结果，用于并列显示的估算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="62"/>
        <source>on out-of-memory, do not look for the largest micro-batch that fits</source>
        <translation>内存不足时，不去寻找能放下的最大微批次</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="70"/>
        <source>out of memory; trying micro-batch {b}</source>
        <translation>内存不足，正在尝试微批次 {b}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="73"/>
        <source>Trial</source>
        <translation>试运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="87"/>
        <source>Device: {device}, micro-batch {batch}, {steps} timed steps after one warm-up</source>
        <translation>设备为 {device}，微批次 {batch}，一步预热后计时 {steps} 步</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="91"/>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="85"/>
        <source>Step time (s)</source>
        <translation>每步耗时（秒）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="94"/>
        <source>{what}: {measured} measured, {estimated} estimated (ratio {ratio})</source>
        <translation>{what}：实测 {measured}，估算 {estimated}（比值 {ratio}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="97"/>
        <source>Whole run at the measured speed: {t}</source>
        <translation>按实测速度，整个训练需要 {t}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="102"/>
        <source>Install: {cmd}</source>
        <translation>安装命令：{cmd}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="121"/>
        <source>--max-seconds must be between 0 and 3600</source>
        <translation>--max-seconds 必须在 0 到 3600 之间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="123"/>
        <source>--steps must be between 1 and 100000</source>
        <translation>--steps 必须在 1 到 100000 之间</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/command.py" line="125"/>
        <source>--python: expected the path of a Python with PyTorch</source>
        <translation>--python：需要一个装有 PyTorch 的 Python 的路径</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/models.py" line="95"/>
        <source>the trial cannot build an encoder-decoder model from its sizes alone; give its config.json as the job</source>
        <translation>仅凭尺寸无法构建编码器-解码器模型，请把它的 config.json 作为任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/models.py" line="154"/>
        <source>the trial has no model for '{name}' (a {arch} job); it can build: {known}</source>
        <translation>试运行没有“{name}”（{arch} 任务）的模型，可以构建的有 {known}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/models.py" line="184"/>
        <source>--seq-len {n} is longer than this model's {limit} positions</source>
        <translation>--seq-len {n} 超过了这个模型的 {limit} 个位置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/trial/models.py" line="187"/>
        <source>the trial runs LoRA only on transformer and diffusion models</source>
        <translation>试运行只支持在 Transformer 和扩散模型上做 LoRA</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/dialogs.py" line="20"/>
        <source>Something went wrong</source>
        <translation>出了点问题</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/dialogs.py" line="21"/>
        <source>gpucheck hit an unexpected problem, but it is still running. You can carry on or start over.</source>
        <translation>gpucheck 遇到了意外问题，但仍在运行。你可以继续，也可以重新开始。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/dialogs.py" line="23"/>
        <source>Details were saved to the log file: {path}</source>
        <translation>详细信息已保存到日志文件：{path}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/dialogs.py" line="34"/>
        <source>Cannot do that</source>
        <translation>无法执行此操作</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="28"/>
        <source>Graphics card (GPU)</source>
        <translation>显卡（GPU）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="31"/>
        <source>Disks</source>
        <translation>硬盘</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="35"/>
        <source>Limited</source>
        <translation>受限</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="35"/>
        <source>Missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="96"/>
        <source>Video memory (VRAM): {total} total, {free} free, {reserved} kept by the driver</source>
        <translation>显存：共 {total}，可用 {free}，驱动保留 {reserved}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="100"/>
        <source>Video memory (VRAM): {total} total, {free} free</source>
        <translation>显存：共 {total}，可用 {free}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="103"/>
        <source>Shared memory: {shared}; usable by the GPU: {usable}</source>
        <translation>共享内存：{shared}；GPU 可用：{usable}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="106"/>
        <source>Vendor: {vendor} · training through: {backend}</source>
        <translation>厂商：{vendor} · 训练后端：{backend}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="109"/>
        <source>Architecture: {arch} · compute capability {cc}</source>
        <translation>架构：{arch} · 计算能力 {cc}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="112"/>
        <source>Compute units: {n}</source>
        <translation>计算单元：{n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="114"/>
        <source>Clocks: graphics {cur} (max {max}), memory max {mem}</source>
        <translation>频率：核心 {cur}（最高 {max}），显存最高 {mem}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="118"/>
        <source>PCIe: Gen {gen} ×{width} now (max Gen {gen_max} ×{width_max})</source>
        <translation>PCIe：当前 Gen {gen} ×{width}（最高 Gen {gen_max} ×{width_max}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="122"/>
        <source>NVLink: {n} active links</source>
        <translation>NVLink：{n} 条活动链路</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="124"/>
        <source>Power: {draw} now, limit {limit}</source>
        <translation>功耗：当前 {draw}，上限 {limit}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="129"/>
        <source>Slowed down now by: {reasons}</source>
        <translation>当前降频原因：{reasons}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="131"/>
        <source>Driver {driver} (supports CUDA up to {cuda})</source>
        <translation>驱动 {driver}（最高支持 CUDA {cuda}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="134"/>
        <source>MIG is on: {n} slices</source>
        <translation>已开启 MIG：{n} 个分区</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="136"/>
        <source>Also drives a display (some VRAM is in use)</source>
        <translation>同时连接了显示器（部分显存已被占用）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="152"/>
        <source>GPU {index}: {name}</source>
        <translation>GPU {index}：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="154"/>
        <source>GPUs {first}–{last} ({n} identical): {name}</source>
        <translation>GPU {first}–{last}（{n} 块相同）：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="163"/>
        <source>{usable} usable of {total}</source>
        <translation>{total} 中可用 {usable}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="166"/>
        <source>{n} × {name} · {vram} VRAM each</source>
        <translation>{n} × {name} · 每块显存 {vram}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="168"/>
        <source>{name} · {vram} of the {ram} memory it shares with the processor (unified memory)</source>
        <translation>{name} · 与处理器共用的 {ram} 内存中可用 {vram}（统一内存）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="173"/>
        <source>{name} · {vram} VRAM</source>
        <translation>{name} · 显存 {vram}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="175"/>
        <source>{name} (not usable for training)</source>
        <translation>{name}（无法用于训练）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="177"/>
        <source>No graphics card for training</source>
        <translation>没有可用于训练的显卡</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="181"/>
        <source>Trains {runs} of the {total} built-in jobs here (as the jobs page lists them, some with the advised settings).</source>
        <translation>能训练 {total} 个内置任务中的 {runs} 个（与任务页一致，有些需按建议调整设置）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="199"/>
        <source>{brand} · {phys} cores / {logical} threads</source>
        <translation>{brand} · {phys} 核 / {logical} 线程</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="199"/>
        <source>unknown processor</source>
        <translation>未知处理器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="203"/>
        <source>Clock: {base} MHz base, {max} MHz max</source>
        <translation>频率：基础 {base} MHz，最高 {max} MHz</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="206"/>
        <source>Clock of one busy core, measured: {mhz} MHz</source>
        <translation>一个满载核心的实测频率：{mhz} MHz</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="208"/>
        <source>L3 cache: {size}</source>
        <translation>三级缓存：{size}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="210"/>
        <source>Sockets: {n}</source>
        <translation>CPU 插槽数：{n}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="216"/>
        <source>No GPU for training: every job trains on this processor ({n} threads), many times slower than on a GPU.</source>
        <translation>没有可用于训练的 GPU：所有任务都在这颗处理器（{n} 个线程）上训练，比在 GPU 上慢很多倍。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="225"/>
        <source>{total} RAM · {available} available</source>
        <translation>内存 {total} · 可用 {available}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="228"/>
        <source>{total} RAM for Linux (the WSL 2 limit) · {available} available</source>
        <translation>Linux 可用内存 {total}（WSL 2 的上限）· 空闲 {available}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="230"/>
        <source>Swap: {total} total, {free} free</source>
        <translation>交换空间：共 {total}，可用 {free}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="233"/>
        <source>Shared with the GPU (unified memory)</source>
        <translation>与 GPU 共享（统一内存）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="237"/>
        <source>WSL 2 gives Linux only {total}: raise memory= in .wslconfig.</source>
        <translation>WSL 2 只给 Linux {total}：在 .wslconfig 里调高 memory=。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="241"/>
        <source>{n} more</source>
        <translation>另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="242"/>
        <source>Too little RAM for: {jobs}. {limit}</source>
        <translation>内存不够的任务：{jobs}。{limit}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="256"/>
        <source>{mount} ({device}): {kind}, {free} free of {total}</source>
        <translation>{mount}（{device}）：{kind}，可用 {free}，共 {total}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="259"/>
        <source>Model: {model}</source>
        <translation>型号：{model}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="261"/>
        <source>Type found from: {reason}</source>
        <translation>类型判断依据：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="264"/>
        <source>1 disk · {kinds}</source>
        <translation>1 块硬盘 · {kinds}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="265"/>
        <source>{n} disks · {kinds}</source>
        <translation>{n} 块硬盘 · {kinds}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="267"/>
        <source>No disks were found.</source>
        <translation>没有找到硬盘。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="277"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="279"/>
        <source>Virtual machine</source>
        <translation>虚拟机</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="281"/>
        <source>Laptop</source>
        <translation>笔记本电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="281"/>
        <source>Desktop</source>
        <translation>台式机</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="283"/>
        <source>on battery</source>
        <translation>正在使用电池供电</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="285"/>
        <source>about {w} W at full load (estimate)</source>
        <translation>满载约 {w} W（估算）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="289"/>
        <source>power supply not readable</source>
        <translation>无法读取电源信息</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="290"/>
        <source>Power details are unknown.</source>
        <translation>电源信息未知。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="293"/>
        <source>Recommended power supply: {w} W</source>
        <translation>建议电源功率：{w} W</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="295"/>
        <source>GPU power limit (all GPUs): {w} W</source>
        <translation>GPU 功耗上限（所有 GPU 合计）：{w} W</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="297"/>
        <source>Battery: {pct} %</source>
        <translation>电池：{pct}%</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="309"/>
        <source>{os} {version}</source>
        <translation>{os} {version}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="309"/>
        <source>unknown system</source>
        <translation>未知系统</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="311"/>
        <source>{system} · {frameworks}</source>
        <translation>{system} · {frameworks}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="312"/>
        <source>Python {v}</source>
        <translation>Python {v}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="314"/>
        <source>NVIDIA driver {v} (CUDA {cuda})</source>
        <translation>NVIDIA 驱动 {v}（CUDA {cuda}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="319"/>
        <source>Kernel {v}</source>
        <translation>内核 {v}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="321"/>
        <source>GPU use unknown</source>
        <translation>能否使用 GPU 未知</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="322"/>
        <source>{name} {version}: {gpu}</source>
        <translation>{name} {version}：{gpu}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="324"/>
        <source>{line} ({reason})</source>
        <translation>{line}（{reason}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="332"/>
        <source>macOS {have} is too old for training on the Mac's GPU: update macOS to {need} or later first, then install PyTorch.</source>
        <translation>macOS {have} 太旧，无法用 Mac 的 GPU 训练：请先把 macOS 升级到 {need} 或更高，再安装 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="336"/>
        <source>Needs PyTorch: it is not installed. The details page gives the command for this PC.</source>
        <translation>需要 PyTorch：还没有安装。详情页有适合这台电脑的安装命令。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="359"/>
        <source>Measured by the deep scan:</source>
        <translation>深度扫描实测：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="379"/>
        <source>The deep scan stopped after {s} s; what it measured is in the parts' details.</source>
        <translation>深度扫描在 {s} 秒后停止；已测得的数据在各部件的详情中。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="381"/>
        <source>The deep scan measured this PC in {s} s: its figures are in the parts' details.</source>
        <translation>深度扫描用 {s} 秒实测了这台电脑：各项数据在各部件的详情中。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/machine_view.py" line="390"/>
        <location filename="../../gpucheck/ui/pages/machine.py" line="63"/>
        <source>Saved scan: {label}</source>
        <translation>已保存的扫描：{label}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="155"/>
        <source>Details and advice</source>
        <translation>详情与建议</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="156"/>
        <source>How much memory the job needs, how long it takes, and what to change, buy or rent to make it work.</source>
        <translation>这个训练任务需要多少显存、要跑多久，以及需要改什么设置、买什么配件或租什么云服务器才能跑起来。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="158"/>
        <source>What if I had…</source>
        <translation>模拟：如果我有…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="159"/>
        <source>Pick a GPU from the catalog (type to search) to see this job on it.</source>
        <translation>从显卡列表中选一块（可输入搜索），看看这个训练任务在它上面的表现。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="160"/>
        <source>Video memory (VRAM)</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="161"/>
        <source>Time and other needs</source>
        <translation>时间与其他需求</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="163"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="83"/>
        <source>Settings that make it work</source>
        <translation>能让它跑起来的设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="164"/>
        <location filename="../../gpucheck/ui/pages/details.py" line="167"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="157"/>
        <source>Copy settings</source>
        <translation>复制设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="168"/>
        <source>Bottlenecks and software</source>
        <translation>瓶颈与软件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="171"/>
        <source>Provider and GPU</source>
        <translation>服务商与 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="171"/>
        <source>Price per GPU-hour</source>
        <translation>卡·时单价</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="172"/>
        <source>Cost of this job</source>
        <translation>本任务费用</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="174"/>
        <source>How many of these GPUs</source>
        <translation>这种 GPU 的数量</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="175"/>
        <source>Pick a GPU from the catalog first; this PC's own GPUs are counted as scanned.</source>
        <translation>请先从显卡列表里选一块 GPU；本机的 GPU 按扫描结果计数。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="186"/>
        <source>My PC: {name}</source>
        <translation>我的电脑：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="192"/>
        <source>{name} — {details}</source>
        <translation>{name} — {details}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="194"/>
        <source>{text} — cheapest that runs this job</source>
        <translation>{text} — 能跑这个任务的最便宜的一块</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="195"/>
        <source>{text} — may run this job (tight)</source>
        <translation>{text} — 可能能运行这个任务（很紧）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="261"/>
        <source>{job} — on {target}</source>
        <translation>{job} — 在 {target} 上</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="312"/>
        <source>This trial ran on {device}, not on {target}: the page keeps the estimate for {target}. A PyTorch that can use {target} would measure it.</source>
        <translation>这次试运行是在 {device} 上跑的，不是在 {target} 上：本页仍显示 {target} 的估算。换用能使用 {target} 的 PyTorch 才能实测它。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="345"/>
        <source>Memory (RAM) — training on the CPU</source>
        <translation>内存（RAM）— 在 CPU 上训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="349"/>
        <source>Video memory (VRAM), as configured</source>
        <translation>显存（按当前设置）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="350"/>
        <source>On {gpu}: {have}</source>
        <translation>{gpu} 上：{have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="356"/>
        <source>The chart shows the video memory as configured: {caption}.</source>
        <translation>图中是按当前设置的显存：{caption}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="360"/>
        <source>The chart shows the settings as configured; the changes are listed below.</source>
        <translation>图中是按当前设置的情况；需要的调整列在下方。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="374"/>
        <source>Speed as configured: {speed}</source>
        <translation>按当前设置的速度：{speed}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="376"/>
        <source>Speed as configured: {n} tokens per second</source>
        <translation>按当前设置的速度：每秒 {n} 个 token</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="378"/>
        <source>{data_set} Change it on the previous page.</source>
        <translation>{data_set}可在上一页修改。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="380"/>
        <source>Also needs {disk}.</source>
        <translation>另外需要 {disk}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="382"/>
        <source>Also needs {ram} of RAM and {disk}.</source>
        <translation>另外需要 {ram} 内存和 {disk}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="385"/>
        <source>Uses speeds measured by the deep scan.</source>
        <translation>使用深度扫描实测的速度。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="391"/>
        <source>Assumed: {items}</source>
        <translation>假设：{items}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="401"/>
        <source>Side by side: this PC and the what-if GPU</source>
        <translation>对比：本机与模拟的 GPU</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="403"/>
        <source>This PC: {name}</source>
        <translation>本机：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details.py" line="404"/>
        <source>What if: {name}</source>
        <translation>模拟：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="85"/>
        <source>Nothing to change: it runs with the job's own settings.</source>
        <translation>无需改动：用训练任务自带的设置就能运行。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="90"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="151"/>
        <source>{n}. {title} — cost: {cost}</source>
        <translation>{n}. {title} — 代价：{cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="93"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="122"/>
        <source>needs {need}</source>
        <translation>需要 {need}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="95"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="120"/>
        <source>takes {time}</source>
        <translation>耗时 {time}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="97"/>
        <source>{line} (then {after})</source>
        <translation>{line}（之后：{after}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="107"/>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="161"/>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="123"/>
        <source>{title} (then {after})</source>
        <translation>{title}（之后：{after}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_advice.py" line="130"/>
        <source>Trade-off: {cost}</source>
        <translation>代价：{cost}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="80"/>
        <source>These slow training on this PC's processor down: fix them first.</source>
        <translation>这些问题会拖慢本机处理器上的训练：请先解决。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="81"/>
        <source>These hold {target} back: a faster GPU would not finish sooner until they are fixed.</source>
        <translation>这些问题拖慢了 {target}：不解决它们，换更快的 GPU 也不会更快完成。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="84"/>
        <source>{message} — {fix}</source>
        <translation>{message} — {fix}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="94"/>
        <source>To try a job for real ("Try it for real" above), install PyTorch in a Python on this PC:</source>
        <translation>要真实试运行任务（见上方的“真实试运行”），请先在本机的 Python 中安装 PyTorch：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="98"/>
        <source>None found.</source>
        <translation>未发现。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="120"/>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="199"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="130"/>
        <source>No upgrade needed for this job.</source>
        <translation>这个训练任务不需要升级硬件。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="131"/>
        <source>No upgrade to suggest for this job.</source>
        <translation>这个训练任务没有需要建议的升级。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="146"/>
        <source>on demand</source>
        <translation>按量计费</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="146"/>
        <source>spot</source>
        <translation>竞价实例</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="149"/>
        <source>{provider} — {gpus}</source>
        <translation>{provider} — {gpus}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="150"/>
        <source>as of {date}</source>
        <translation>截至 {date}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="164"/>
        <source>Not needed: the job runs here.</source>
        <translation>不需要：这个训练任务在这里就能运行。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/details_help.py" line="165"/>
        <source>No cloud offer in the catalog fits this job.</source>
        <translation>列表中没有适合这个训练任务的云服务器。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="20"/>
        <source>Full training</source>
        <translation>全量训练</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="20"/>
        <source>LoRA (small add-on weights)</source>
        <translation>LoRA（只训练少量附加权重）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="21"/>
        <source>QLoRA (4-bit model + LoRA)</source>
        <translation>QLoRA（4 位量化模型 + LoRA）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="22"/>
        <source>BF16 mixed precision</source>
        <translation>BF16 混合精度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="22"/>
        <source>FP16 mixed precision</source>
        <translation>FP16 混合精度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="23"/>
        <source>FP32 (full precision)</source>
        <translation>FP32（全精度）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="23"/>
        <source>BF16 (pure)</source>
        <translation>纯 BF16</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="24"/>
        <source>Attention q and v (the usual default)</source>
        <translation>注意力层的 q、v（常用默认）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="24"/>
        <source>All attention projections</source>
        <translation>注意力层的全部投影（q、k、v、o）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="25"/>
        <source>The MLP layers</source>
        <translation>MLP 层</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="25"/>
        <source>Every linear layer</source>
        <translation>所有线性层</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="27"/>
        <source>AdamW (the usual default)</source>
        <translation>AdamW（通常的默认）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="27"/>
        <source>8-bit AdamW (bitsandbytes)</source>
        <translation>8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="28"/>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="28"/>
        <source>Adafactor (factored: little memory)</source>
        <translation>Adafactor（分解存储，省显存）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="29"/>
        <source>None: each GPU holds everything</source>
        <translation>不分片：每块 GPU 各存一份完整副本</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="29"/>
        <source>ZeRO-1: optimizer state split</source>
        <translation>ZeRO-1：分片优化器状态</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="30"/>
        <source>ZeRO-2: optimizer state and gradients split</source>
        <translation>ZeRO-2：分片优化器状态和梯度</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="30"/>
        <source>ZeRO-3 / FSDP: everything split</source>
        <translation>ZeRO-3 / FSDP：全部分片</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="140"/>
        <source>Settings for: {job}</source>
        <translation>设置：{job}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="154"/>
        <source>This job has no sequence length: it works on images, not text.</source>
        <translation>这个任务没有序列长度：它处理的是图像，不是文本。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="156"/>
        <source>This job has no image size: it works on text, not images.</source>
        <translation>这个任务没有图像尺寸：它处理的是文本，不是图像。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="159"/>
        <source>LoRA and QLoRA are offered for transformer models; this model is trained in full.</source>
        <translation>LoRA 和 QLoRA 只用于 Transformer 模型；这个模型只能全量训练。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="173"/>
        <source>Only for jobs on text whose samples vary in length: the mean length of its samples in tokens (Whisper pads every clip to 30 seconds).</source>
        <translation>只适用于样本长短不一的文本任务：样本的平均长度（token 数）（Whisper 会把每段音频补齐到 30 秒）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="176"/>
        <source>The mean length of your data set's samples in tokens (--avg-seq-len): the training time follows it, the memory follows the longest sample, which the sequence length caps.</source>
        <translation>数据集样本的平均长度（token 数，--avg-seq-len）：训练时间按它计算；显存按最长的样本计算，而最长样本受序列长度限制。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="190"/>
        <source>Only for LoRA and QLoRA: choose one of them as the method first.</source>
        <translation>只用于 LoRA 和 QLoRA：请先把训练方式选为其中之一。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="192"/>
        <source>These targets are a transformer's layers; this job's model is not a transformer ({arch}), so its LoRA layers are the ones the job itself names.</source>
        <translation>这些目标是 Transformer 模型的层；这个任务的模型不是 Transformer（而是 {arch}），所以 LoRA 加在任务本身指定的层上。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="197"/>
        <source>LoRA dropout is counted for transformer models; this job's model is not one ({arch}), so the setting would change nothing here.</source>
        <translation>LoRA dropout 只在 Transformer 模型上计入估算；这个任务的模型不是 Transformer（而是 {arch}），所以改这个设置不会有任何变化。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="202"/>
        <source>Only with several GPUs: {target} trains on one.</source>
        <translation>只在多块 GPU 时可用：{target} 只用一块训练。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="205"/>
        <source>CPU offload (DeepSpeed ZeRO-Offload) needs an NVIDIA or AMD GPU; {target} is not one.</source>
        <translation>卸载到 CPU（DeepSpeed ZeRO-Offload）需要 NVIDIA 或 AMD 的 GPU；{target} 不是。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="208"/>
        <source>Packing joins short text samples of language-model jobs; this job is not one.</source>
        <translation>序列打包用于把大语言模型任务的短文本样本拼在一起；这个任务不是这类任务。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="218"/>
        <source>Dropout on each LoRA adapter's input: while training, it randomly zeroes a share of what goes into the adapter, which can help against overfitting. It costs memory: above 0, every adapted layer keeps a copy of its input in RAM, whatever the value; 0 keeps none and saves that memory. 0.05–0.1 is common in LoRA recipes; the default is 0.05.</source>
        <translation>LoRA 适配器输入上的 dropout：训练时随机把进入适配器的一部分输入置零，有助于防止过拟合。它要占用内存：只要大于 0，每个被适配的层都会在内存中多存一份输入，和具体数值无关；设为 0 就不存，能省下这部分内存。LoRA 的常见训练配置多用 0.05–0.1；默认是 0.05。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="223"/>
        <source>Dropout on each LoRA adapter's input: while training, it randomly zeroes a share of what goes into the adapter, which can help against overfitting. It costs memory: above 0, every adapted layer keeps a copy of its input in VRAM, whatever the value; 0 keeps none and saves that memory. 0.05–0.1 is common in LoRA recipes; the default is 0.05.</source>
        <translation>LoRA 适配器输入上的 dropout：训练时随机把进入适配器的一部分输入置零，有助于防止过拟合。它要占用显存：只要大于 0，每个被适配的层都会在显存中多存一份输入，和具体数值无关；设为 0 就不存，能省下这部分显存。LoRA 的常见训练配置多用 0.05–0.1；默认是 0.05。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="234"/>
        <source>This GPU has no BF16 units: choose FP16, or keep BF16 to see the change advised.</source>
        <translation>这块显卡没有 BF16 单元：请选 FP16，或保留 BF16 查看建议的调整。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="235"/>
        <source>Weights, gradients and optimizer state all in BF16 (about 8 bytes per parameter instead of about 18)</source>
        <translation>权重、梯度和优化器状态全部用 BF16（每个参数约 8 字节，而不是约 18 字节）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="240"/>
        <source>{label} (not on this GPU)</source>
        <translation>{label}（这块显卡不支持）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="251"/>
        <source>{label} → {used} on a CPU</source>
        <translation>{label} → 在 CPU 上为 {used}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/job_settings.py" line="253"/>
        <source>The estimate uses {text}.</source>
        <translation>估算使用的是 {text}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="56"/>
        <source>What do you want to train?</source>
        <translation>你想训练什么？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="57"/>
        <source>From your first digit classifier to fine-tuning a 70-billion-parameter model. Pick a job to see the details and how to make it work.</source>
        <translation>从你的第一个手写数字分类器，到微调 700 亿参数的大模型。选择一个训练任务，查看详情以及如何让它跑起来。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="60"/>
        <source>Import a job…</source>
        <translation>导入训练任务…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="61"/>
        <source>A workload .toml file or a Hugging Face config.json</source>
        <translation>训练任务 .toml 文件或 Hugging Face 的 config.json</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="62"/>
        <source>Pick a job in the table (arrow keys or a click) to see its details; Next is greyed out until you do.</source>
        <translation>在表格中选一个任务（方向键或点击）查看详情；选好之前“下一步”是灰色的。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="64"/>
        <source>&amp;Method</source>
        <translation>方法(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="64"/>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="64"/>
        <source>&amp;Batch size (per GPU)</source>
        <translation>微批次（每块 GPU）(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="65"/>
        <source>&amp;Sequence length (tokens)</source>
        <translation>序列长度（token 数）(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="65"/>
        <source>&amp;Image size (pixels)</source>
        <translation>图像尺寸（像素）(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="66"/>
        <source>Training &amp;samples</source>
        <translation>训练样本数(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="66"/>
        <source>&amp;Epochs</source>
        <translation>轮数(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="66"/>
        <source>LoRA &amp;targets</source>
        <translation>LoRA 作用层(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="67"/>
        <source>LoRA &amp;dropout</source>
        <translation>LoRA dropout 比例(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="67"/>
        <source>So&amp;ftware stack</source>
        <translation>软件栈(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="67"/>
        <source>Several GPUs: &amp;ZeRO</source>
        <translation>多 GPU：&amp;ZeRO</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="68"/>
        <source>Gradient acc&amp;umulation</source>
        <translation>梯度累积步数(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="68"/>
        <source>&amp;Optimizer</source>
        <translation>优化器(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="69"/>
        <source>Mean sample &amp;length (tokens)</source>
        <translation>样本平均长度（token 数）(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="72"/>
        <source>Gradient checkpointing (less memory, about a third slower)</source>
        <translation>梯度检查点（省显存，但大约慢三分之一）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="73"/>
        <source>Pack short samples into full-length rows (sequence packing)</source>
        <translation>把短样本拼接成满长度的序列（序列打包）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="74"/>
        <source>CPU offload (ZeRO-Offload: less VRAM, more RAM, slower)</source>
        <translation>卸载到 CPU（ZeRO-Offload：省显存，多占内存，更慢）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="75"/>
        <source>How many times training goes through the whole data set</source>
        <translation>训练要把整个数据集过几遍</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="76"/>
        <source>Micro-batches whose gradients are added up before each optimizer step (the Trainer's gradient_accumulation_steps). The effective batch is the batch size × this × the GPUs: a small card trains with the batch a recipe asks for at the memory of one micro-batch, and the optimizer step and the GPUs' gradient exchange come less often.</source>
        <translation>每次优化器更新前，把这么多个微批次的梯度累加起来（即 Trainer 的 gradient_accumulation_steps）。有效批大小 = 批大小 × 这个值 × GPU 数：小显卡也能用教程要求的批大小训练，显存只按一个微批次算；优化器更新和多卡之间的梯度交换也更少。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="81"/>
        <source>What the optimizer keeps for every trained parameter: AdamW two values (8 bytes in FP32, 4 in pure BF16); 8-bit AdamW (bitsandbytes, NVIDIA GPUs) 2 bytes; SGD with momentum one value; Adafactor only the row and column averages of each weight matrix (next to nothing for a transformer, more for convolutions), and its step is slower than a fused AdamW step.</source>
        <translation>优化器为每个被训练的参数保存的状态：AdamW 两个值（FP32 下 8 字节，纯 BF16 下 4 字节）；8 位 AdamW（bitsandbytes，NVIDIA GPU）2 字节；带动量的 SGD 一个值；Adafactor 只保存每个权重矩阵按行、按列的平均值（对 Transformer 几乎不占显存，对卷积层多一些），但它每次更新比融合的 AdamW 慢。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="88"/>
        <source>Back to the job's defaults</source>
        <translation>恢复训练任务的默认设置</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="153"/>
        <source>Import a training job</source>
        <translation>导入训练任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="154"/>
        <source>Training jobs (*.toml *.json);;Workload files (*.toml);;Hugging Face config (*.json);;All files (*)</source>
        <translation>训练任务 (*.toml *.json);;训练任务文件 (*.toml);;Hugging Face 配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="163"/>
        <source>This job cannot be imported: {reason}</source>
        <translation>无法导入此训练任务：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs.py" line="164"/>
        <source>Cannot import the job</source>
        <translation>无法导入训练任务</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/jobs_ladder.py" line="57"/>
        <source>{title}
{description}</source>
        <translation>{title}
{description}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/machine.py" line="47"/>
        <source>Your machine</source>
        <translation>你的电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/machine.py" line="48"/>
        <source>What gpucheck found. Green is good, orange means it limits what you can train, red means it is missing.</source>
        <translation>gpucheck 的检测结果。绿色表示良好，橙色表示会限制你能训练的内容，红色表示缺失。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/machine.py" line="50"/>
        <source>Copy to clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/machine.py" line="65"/>
        <source>This PC, scanned {when}</source>
        <translation>本机，扫描于 {when}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/machine.py" line="67"/>
        <source>This PC</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/machine.py" line="81"/>
        <source>Copied.</source>
        <translation>已复制。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="98"/>
        <source>Your report</source>
        <translation>你的报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="99"/>
        <source>Here is the document: save it to keep it, or to show a shop or a friend.</source>
        <translation>这就是报告本身：保存下来留着，或者拿给商家、朋友看。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="100"/>
        <source>It has your machine, the verdict for every job, and for each job the memory chart, the settings to change, your options, upgrades and cloud prices.</source>
        <translation>报告包括你的电脑配置、每个任务的结论，以及每个任务的显存图、需要调整的设置、几种做法、升级和云服务器价格。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="102"/>
        <source>Details only for the chosen job (the list of all jobs stays)</source>
        <translation>只写选中任务的详情（所有任务的列表仍保留）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="103"/>
        <source>Include the computer's name and GPU serial numbers (off keeps them private)</source>
        <translation>包含计算机名和 GPU 序列号（关闭则不公开这些信息）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="104"/>
        <source>Report language:</source>
        <translation>报告语言：</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="108"/>
        <source>Save PDF…</source>
        <translation>保存 PDF…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="109"/>
        <source>Save HTML…</source>
        <translation>保存 HTML…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="110"/>
        <source>Save JSON…</source>
        <translation>保存 JSON…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="111"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="114"/>
        <source>Start over</source>
        <translation>重新开始</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="126"/>
        <location filename="../../gpucheck/ui/pages/report.py" line="113"/>
        <source>Save the report first; then Open shows it in your PDF viewer or browser.</source>
        <translation>请先保存报告；之后“打开”会用 PDF 阅读器或浏览器显示它。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="137"/>
        <source>Chosen job: {job} · this PC as scanned ({target})</source>
        <translation>选中的任务：{job} · 本机扫描结果（{target}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="140"/>
        <source>This PC as scanned ({target})</source>
        <translation>本机扫描结果（{target}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="142"/>
        <source>{scope}
The report is for this PC as scanned, not for the what-if GPU.</source>
        <translation>{scope}
报告针对的是扫描到的这台电脑，而不是模拟的 GPU。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="144"/>
        <source>Saves to {folder} as {name} unless you choose another place.</source>
        <translation>默认保存到 {folder}，文件名 {name}；也可以另选位置。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="198"/>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="198"/>
        <source>Web page (*.html)</source>
        <translation>网页 (*.html)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="199"/>
        <source>JSON data (*.json)</source>
        <translation>JSON 数据 (*.json)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="200"/>
        <source>Save the report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="227"/>
        <location filename="../../gpucheck/ui/pages/report.py" line="112"/>
        <source>Open the saved file</source>
        <translation>打开保存的文件</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="232"/>
        <source>Not saved: {reason}</source>
        <translation>未保存：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="233"/>
        <source>The report was not saved: {reason}</source>
        <translation>报告未保存：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="233"/>
        <source>Cannot save the report</source>
        <translation>无法保存报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="240"/>
        <source>The saved report is no longer at {path}: save it again.</source>
        <translation>保存的报告已不在 {path}：请重新保存。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="245"/>
        <source>No program on this computer is set to open {kind} files. The report is saved at {path}: open it from there, or install a PDF viewer or a web browser.</source>
        <translation>这台电脑上没有设置打开 {kind} 文件的程序。报告已保存在 {path}：请从那里打开，或安装 PDF 阅读器或网页浏览器。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/report.py" line="248"/>
        <location filename="../../gpucheck/ui/pages/report.py" line="241"/>
        <source>Cannot open the report</source>
        <translation>无法打开报告</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="114"/>
        <location filename="../../gpucheck/ui/wizard.py" line="184"/>
        <source>Can my PC train this?</source>
        <translation>我的电脑能训练这个吗？</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="115"/>
        <source>Find out which AI training jobs your computer can run, how long they take, and the cheapest way to get there.</source>
        <translation>看看你的电脑能跑哪些 AI 训练任务、各需要多长时间，以及达成目标最省钱的办法。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="117"/>
        <source>First, gpucheck looks at your graphics card, processor, memory, disks, power and installed software. Nothing is sent anywhere.</source>
        <translation>首先，gpucheck 会检查你的显卡、处理器、内存、硬盘、电源和已安装的软件。任何信息都不会被上传。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="119"/>
        <source>Scan my PC</source>
        <translation>扫描我的电脑</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="120"/>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="198"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="121"/>
        <source>Deep scan (also measures speed; takes about half a minute)</source>
        <translation>深度扫描（同时实测速度，大约需要半分钟）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="122"/>
        <source>Runs short benchmarks on your GPU, CPU and disk so the time estimates use measured figures.</source>
        <translation>在你的 GPU、CPU 和硬盘上运行简短的基准测试，让时间估算使用实测数据。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="124"/>
        <source>Open a saved scan…</source>
        <translation>打开已保存的扫描…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="127"/>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="256"/>
        <source>{done} of {total} checked</source>
        <translation>已检查 {done}/{total} 项</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="134"/>
        <source>Scanning… you can keep using the window.</source>
        <translation>正在扫描……你可以继续使用窗口。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="138"/>
        <source>Showing a saved scan: {label}. Press Next to see it.</source>
        <translation>正在显示已保存的扫描：{label}。点击“下一步”查看。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="140"/>
        <source>Scan finished. Press Next to see your machine.</source>
        <translation>扫描完成。点击“下一步”查看你的电脑。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="142"/>
        <source>Press the button to start. A quick scan takes a few seconds.</source>
        <translation>点击按钮开始。快速扫描只需几秒钟。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="153"/>
        <source>checking…</source>
        <translation>检查中…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="211"/>
        <source>Scan cancelled. Press the button to start again.</source>
        <translation>扫描已取消。点击按钮重新开始。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="235"/>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="151"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="242"/>
        <source>Measuring: {step}</source>
        <translation>正在测量：{step}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="271"/>
        <source>The scan could not finish: {reason}</source>
        <translation>扫描未能完成：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="274"/>
        <source>The scan could not finish: {reason}. Details are in {path}.</source>
        <translation>扫描未能完成：{reason}。详细信息见 {path}。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="283"/>
        <source>Open a saved scan</source>
        <translation>打开已保存的扫描</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/pages/welcome.py" line="283"/>
        <source>gpucheck scans (*.json);;All files (*)</source>
        <translation>gpucheck 扫描文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="203"/>
        <source>What if: compared on {target} (from the catalog), with this PC's RAM, disks and CPU.</source>
        <translation>模拟：换成 {target}（来自显卡列表），内存、硬盘和 CPU 仍用本机的。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="208"/>
        <source>Compared on the processor of the saved scan {label} (no GPU for training).</source>
        <translation>对比对象：已保存扫描 {label} 的处理器（没有可用于训练的 GPU）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="210"/>
        <source>Compared on {target} (saved scan: {label}).</source>
        <translation>对比对象：{target}（已保存的扫描：{label}）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="213"/>
        <source>Compared on this PC's processor (no GPU for training).</source>
        <translation>对比对象：本机的处理器（没有可用于训练的 GPU）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="214"/>
        <source>Compared on {target} (this PC).</source>
        <translation>对比对象：{target}（本机）。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="231"/>
        <source>Cannot estimate this job: {reason}</source>
        <translation>无法估算这个训练任务：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/session.py" line="243"/>
        <source>No advice for this job: {reason}</source>
        <translation>无法为这个训练任务给出建议：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/memory_chart.py" line="57"/>
        <source>Total: {total}</source>
        <translation>合计：{total}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/memory_chart.py" line="65"/>
        <source>Your RAM {have}</source>
        <translation>你的内存 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/memory_chart.py" line="66"/>
        <source>Your VRAM {have}</source>
        <translation>你的显存 {have}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/part_card.py" line="67"/>
        <source>Hide details</source>
        <translation>隐藏详情</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/part_card.py" line="67"/>
        <source>Show details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="195"/>
        <source>Try it for real</source>
        <translation>真实试运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="197"/>
        <source>Try it for real ({s} s of training steps)</source>
        <translation>真实试运行（{s} 秒训练步）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="200"/>
        <source>Choose Python…</source>
        <translation>选择 Python…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="201"/>
        <source>The Python (a virtual environment, conda, …) whose PyTorch the trial uses</source>
        <translation>试运行所用 PyTorch 所在的 Python（虚拟环境、conda 等）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="202"/>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="202"/>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="202"/>
        <source>Estimated</source>
        <translation>估算</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="202"/>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="210"/>
        <source>Runs about {s} s of real training steps of this job in your own PyTorch, with random weights and made-up data: nothing is downloaded. Starting Python and PyTorch, building the model and one warm-up step come first (a few seconds, or a minute or more on a slow PC). The measured speed and memory appear beside the estimate.</source>
        <translation>在你自己的 PyTorch 中用随机权重和虚构数据真实运行这个任务约 {s} 秒的训练步：不会下载任何东西。在此之前要先启动 Python 和 PyTorch、构建模型并跑一个预热步（几秒钟，较慢的电脑上可能要一分钟以上）。实测的速度和内存会显示在估算旁边。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="216"/>
        <source>{intro} The last trial on this PC took {s} s in all.</source>
        <translation>{intro}上次在本机试运行共用了 {s} 秒。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="235"/>
        <source>Python: {path} (chosen)</source>
        <translation>Python：{path}（已选择）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="238"/>
        <source>Python: {path} (found with PyTorch)</source>
        <translation>Python：{path}（找到的带 PyTorch 的 Python）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="239"/>
        <source>No Python with PyTorch found yet: install PyTorch (the command is under "Bottlenecks and software"), or choose the Python that has it.</source>
        <translation>还没有找到装有 PyTorch 的 Python：请安装 PyTorch（命令见“瓶颈与软件”），或选择装有它的 Python。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="243"/>
        <source>Choose the Python that has PyTorch</source>
        <translation>选择装有 PyTorch 的 Python</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="244"/>
        <source>Python (python* python*.exe);;All files (*)</source>
        <translation>Python (python* python*.exe);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="320"/>
        <source>Stopping the trial…</source>
        <translation>正在停止试运行…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="331"/>
        <source>starting Python and PyTorch, building the model</source>
        <translation>正在启动 Python 和 PyTorch，构建模型</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="333"/>
        <source>out of memory: trying a smaller micro-batch</source>
        <translation>装不下：正在尝试更小的微批次</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="334"/>
        <source>one warm-up step (not timed)</source>
        <translation>一个预热步（不计时）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="335"/>
        <source>finishing: reading the peak memory and closing PyTorch</source>
        <translation>收尾：读取峰值占用并关闭 PyTorch</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="338"/>
        <source>timing training steps: step {n}, about {s} s left</source>
        <translation>计时训练步：第 {n} 步，约剩 {s} 秒</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="342"/>
        <source>Step {n} of {total} — {what} · {s} s so far</source>
        <translation>第 {n}/{total} 阶段 — {what} · 已用 {s} 秒</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="367"/>
        <source>Out of memory; trying micro-batch {b}…</source>
        <translation>内存不足，正在尝试微批次 {b}…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="379"/>
        <source>The trial could not run: {why}</source>
        <translation>试运行无法进行（{why}）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="403"/>
        <source>No Python with PyTorch was found on this PC. Install PyTorch with the command below (it is also under "Bottlenecks and software"), or press "Choose Python…" to pick the Python that has it.</source>
        <translation>本机没有找到装有 PyTorch 的 Python。请用下面的命令安装 PyTorch（“瓶颈与软件”中也有），或点击“选择 Python…”选择装有它的 Python。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="411"/>
        <source>On {device}, micro-batch {batch}, {steps} timed steps, in {python}</source>
        <translation>在 {device} 上，微批次 {batch}，计时 {steps} 步，使用 {python}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="414"/>
        <source>The whole run at the measured speed: {t}</source>
        <translation>按实测速度，整个训练需要 {t}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/trial_panel.py" line="416"/>
        <source>Every figure of the page above is now the measured one, beside the estimate.</source>
        <translation>上方页面中的各项数字现在都是实测值，估算值列在旁边。</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/widgets/vram_bar.py" line="65"/>
        <source>needs {need} · no GPU memory found</source>
        <translation>需要 {need} · 未找到显存</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="28"/>
        <source>Region: mainland China (domestic clouds and mirrors)</source>
        <translation>地区：中国大陆（国内云服务和镜像）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="29"/>
        <source>Region: outside mainland China</source>
        <translation>地区：中国大陆以外</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="156"/>
        <source>Working…</source>
        <translation>正在处理…</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="161"/>
        <location filename="../../gpucheck/ui/wizard.py" line="186"/>
        <source>Next &gt;</source>
        <translation>下一步 &gt;</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="185"/>
        <source>&lt; Back</source>
        <translation>&lt; 上一步</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="187"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="189"/>
        <source>Language: {name}</source>
        <translation>语言：{name}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="190"/>
        <source>Switch the language (Ctrl+L switches to the next one)</source>
        <translation>切换语言（Ctrl+L 切换到下一种）</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="223"/>
        <source>This file cannot be opened as a scan: {reason}</source>
        <translation>无法将此文件作为扫描结果打开：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpucheck/ui/wizard.py" line="224"/>
        <source>Cannot open the scan</source>
        <translation>无法打开扫描结果</translation>
    </message>
    <message>
        <location filename="../../gpucheck/verdict.py" line="78"/>
        <source>Runs</source>
        <translation>可以运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/verdict.py" line="79"/>
        <source>Tight: may fit</source>
        <translation>很紧，可能装得下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/verdict.py" line="80"/>
        <source>Runs with tweaks</source>
        <translation>调整后可运行</translation>
    </message>
    <message>
        <location filename="../../gpucheck/verdict.py" line="81"/>
        <source>Too slow</source>
        <translation>太慢</translation>
    </message>
    <message>
        <location filename="../../gpucheck/verdict.py" line="82"/>
        <source>Does not fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <location filename="../../gpucheck/verdict.py" line="83"/>
        <source>Not supported</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>{flag}: expected a whole number between 1 and 1024, got {value}</source>
        <translation type="vanished">{flag}：应为 1 到 1024 之间的整数，实际为 {value}</translation>
    </message>
    <message>
        <source>FP32 (the default on {gpu}, where FP16 gives NaN losses and black images, pytorch/pytorch#58123)</source>
        <translation type="vanished">FP32（{gpu} 上默认使用 FP32，因为这类显卡用 FP16 训练会出现 NaN 损失、生成黑图，见 pytorch/pytorch#58123）</translation>
    </message>
    <message>
        <source>FP32: the default on {gpu}, where FP16 gives NaN losses (and black images) (pytorch/pytorch#58123)</source>
        <translation type="vanished">FP32：{gpu} 上的默认精度，这类显卡用 FP16 训练会出现 NaN 损失（生成黑图）（pytorch/pytorch#58123）</translation>
    </message>
    <message>
        <source>Planned in FP32, the default on this GPU: FP16 gives NaN losses (and black images) on GTX 16xx cards (pytorch/pytorch#58123, bmaltais/kohya_ss#436), so the memory and time shown are FP32's; keep fp16 and bf16 off.</source>
        <translation type="vanished">按 FP32 规划，这是这块显卡的默认精度：在 GTX 16xx 显卡上 FP16 会让损失变成 NaN（图像全黑）（pytorch/pytorch#58123、bmaltais/kohya_ss#436），所以显示的显存和时间都是 FP32 的；请关闭 fp16 和 bf16。</translation>
    </message>
    <message>
        <source>The GPU's power limit is set to {w} W, below its default of {d} W: its clock is priced at about {p}% of the default's</source>
        <translation type="vanished">GPU 的功耗上限被设为 {w} W，低于默认的 {d} W：估算按默认频率的约 {p}% 计算</translation>
    </message>
    <message>
        <source>Replace the power supply with a {w} W or larger ATX 3.x unit. Until then, cap the GPU's power, e.g. 'sudo nvidia-smi -pl {cap}', which costs roughly 10-15% speed.</source>
        <translation type="vanished">换一个 {w} W 或更大的 ATX 3.x 电源。在此之前，先限制 GPU 的功耗，例如 'sudo nvidia-smi -pl {cap}'，大约会损失 10-15% 的速度。</translation>
    </message>
    <message>
        <source>the embeddings, output layer and norms stay 16-bit, as in the estimate: give the model and peft_config=lora to TRL's SFTTrainer (TRL 0.26 or newer), without PEFT's prepare_model_for_kbit_training, which casts them to fp32 ({gib} GiB more, and a slower step)</source>
        <translation type="vanished">词嵌入、输出层和归一化层保持 16 位，与估算一致：把 model 和 peft_config=lora 交给 TRL 的 SFTTrainer（TRL 0.26 或更新版本），不要调用 PEFT 的 prepare_model_for_kbit_training，它会把这些层转成 fp32（多占 {gib} GiB，每步也更慢）</translation>
    </message>
    <message>
        <source>mixed precision keeps fp32 weights, as estimated: load the model with dtype=torch.float32 (transformers 5 loads most LLMs in bf16, which then trains in pure bf16: --precision bf16-pure)</source>
        <translation type="vanished">混合精度保留 fp32 权重，与估算一致：用 dtype=torch.float32 加载模型（transformers 5 默认以 bf16 加载多数大模型，训练就成了纯 bf16：--precision bf16-pure）</translation>
    </message>
    <message>
        <source>--avg-seq-len: a trial runs full rows of --seq-len tokens; give this option to 'gpucheck estimate' instead</source>
        <translation type="vanished">--avg-seq-len：试运行按 --seq-len 的完整长度构造每一行；请把这个选项交给 'gpucheck estimate'</translation>
    </message>
    <message>
        <source>--grad-accum: a trial times micro-batches, each with its own optimizer step (accumulation only steps the optimizer less often); give this option to 'gpucheck estimate' instead</source>
        <translation type="vanished">--grad-accum：试运行按微批次计时，每个微批次都更新一次优化器（梯度累积只是让优化器更新得少一些）；请把这个选项交给 'gpucheck estimate'</translation>
    </message>
    <message>
        <source>Only for jobs on text: the mean length of its samples in tokens.</source>
        <translation type="vanished">只适用于文本任务：样本的平均长度（token 数）。</translation>
    </message>
    <message>
        <source>Peak memory (GiB)</source>
        <translation type="vanished">显存峰值（GiB）</translation>
    </message>
    <message>
        <source>other jobs: ×{factor} (this PC as a whole)</source>
        <translation type="vanished">其他任务：耗时为模型估算的 {factor} 倍（按本机整体计）</translation>
    </message>
    <message>
        <source>{where}: key 'model_type': '{got}' is not supported (expected one of: {names})</source>
        <translation type="vanished">{where}：键“model_type”的值“{got}”不受支持（应为以下之一：{names}）</translation>
    </message>
    <message>
        <source>every job is priced from how much of its step is each</source>
        <translation type="vanished">每个任务按其每一步中这两部分各占多少来估算</translation>
    </message>
    <message>
        <source>software stack: eager (a plain PyTorch loop or the Hugging Face Trainer), fused (compiled / fused kernels), handtuned (llm.c-style CUDA)</source>
        <translation type="vanished">软件栈：eager（普通 PyTorch 训练循环或 Hugging Face Trainer）、fused（编译 / 融合算子）、handtuned（llm.c 式手写 CUDA）</translation>
    </message>
    <message>
        <source>Times assume {stack} unless noted; each is the middle of a range (see 'estimate'; --stack changes it).</source>
        <translation type="vanished">时间默认按 {stack} 估算（另有注明的除外）；每个时间都是一个范围的中间值（见 'estimate'；用 --stack 可更改）。</translation>
    </message>
    <message>
        <source>{range}, most likely {time}</source>
        <translation type="vanished">{range}，最可能 {time}</translation>
    </message>
    <message>
        <source>Peak VRAM per GPU (as nvidia-smi shows it)</source>
        <translation type="vanished">每块 GPU 的显存峰值（nvidia-smi 显示的值）</translation>
    </message>
    <message>
        <source>This PC was busy while it was measured (the steps had about {n} % of the processor): the calibration uses the processor time the steps took, not the clock time; for the best figures close other programs and run gpucheck calibrate again</source>
        <translation type="vanished">实测时本机正忙（训练步只用到约 {n}% 的处理器）：校准采用训练步实际占用的处理器时间，而不是挂钟时间；要得到最准确的结果，请关闭其他程序后重新运行 gpucheck calibrate</translation>
    </message>
    <message>
        <source>bf16 = mixed precision (fp32 master weights); bf16-pure = weights, gradients and AdamW state all in bf16</source>
        <translation type="vanished">bf16 = 混合精度（FP32 主权重）；bf16-pure = 权重、梯度和 AdamW 状态全部为 bf16</translation>
    </message>
    <message>
        <source>Also much used in mainland China</source>
        <translation type="vanished">国内常用的其他平台</translation>
    </message>
    <message>
        <source>prices not listed: check on the site (not verified)</source>
        <translation type="vanished">未列出价格，请到官网查看（未核实）</translation>
    </message>
    <message>
        <source>{low} to {high}</source>
        <translation type="vanished">{low} 到 {high}</translation>
    </message>
    <message>
        <source>No graphics card for training was found: jobs would run on the CPU.</source>
        <translation type="vanished">没有找到可用于训练的显卡：训练任务只能在 CPU 上运行。</translation>
    </message>
    <message>
        <source>{n} disk(s) · {kinds}</source>
        <translation type="vanished">{n} 块硬盘 · {kinds}</translation>
    </message>
    <message>
        <source>Speed as configured: {n} samples per second</source>
        <translation type="vanished">按当前设置的速度：每秒 {n} 个样本</translation>
    </message>
    <message>
        <source>Also needs {ram} of RAM and {disk} of disk space.</source>
        <translation type="vanished">另外还需要 {ram} 内存和 {disk} 硬盘空间。</translation>
    </message>
    <message>
        <source>the CPU only (no GPU for training)</source>
        <translation type="vanished">仅 CPU（没有可用于训练的 GPU）</translation>
    </message>
    <message>
        <source>Runs one warm-up step and then about {s} s of real training steps of this job in your own PyTorch, with random weights and made-up data: nothing is downloaded. The measured speed and memory appear beside the estimate.</source>
        <translation type="vanished">在你自己的 PyTorch 中先跑一步预热，再用约 {s} 秒真实运行这个任务的训练步。权重是随机的，数据是生成的，不会下载任何东西。实测的速度和内存会显示在估算旁边。</translation>
    </message>
    <message>
        <source>Try it for real (about {s} s)</source>
        <translation type="vanished">真实试运行（约 {s} 秒）</translation>
    </message>
    <message>
        <source>Starting your Python…</source>
        <translation type="vanished">正在启动你的 Python…</translation>
    </message>
    <message>
        <source>Training step {n}…</source>
        <translation type="vanished">第 {n} 个训练步…</translation>
    </message>
    <message>
        <source>Starting PyTorch…</source>
        <translation type="vanished">正在启动 PyTorch…</translation>
    </message>
    <message>
        <source>Building the model…</source>
        <translation type="vanished">正在构建模型…</translation>
    </message>
    <message>
        <source>Warm-up step…</source>
        <translation type="vanished">预热步…</translation>
    </message>
    <message>
        <source>gpucheck — can my PC train this?</source>
        <translation type="vanished">gpucheck — 我的电脑能训练这个吗？</translation>
    </message>
    <message>
        <source>{path}: cannot read the trial result ({reason})</source>
        <translation type="vanished">{path}：无法读取试运行结果（{reason}）</translation>
    </message>
    <message>
        <source>a different method: about {m}× less memory for the model; steps take about {lo}–{hi}× as long as with LoRA, slightly lower quality</source>
        <translation type="vanished">换一种方法；模型占用的显存降到原来的约 1/{m}，每步耗时约为 LoRA 的 {lo}–{hi} 倍，质量略低</translation>
    </message>
    <message>
        <source>Tight on {target}: it needs about {need} per GPU (between {lo} and {hi} given how far off the estimate has been on published runs) and {have} is usable. It may fit — try it; if it runs out of memory, use what fits instead (below). How long it takes is unknown: this GPU's speed is not in the catalog.</source>
        <translation type="vanished">{target} 上很紧：每块 GPU 需要约 {need}（按估算在已公开的训练中的误差，介于 {lo} 和 {hi} 之间），可用 {have}。可能装得下，可以试试；如果显存不足，请改用下方“能装下的替代方案”。需要多长时间未知：显卡列表中没有这块显卡的速度。</translation>
    </message>
    <message>
        <source>Tight on {target}: it needs about {need} per GPU (between {lo} and {hi} given how far off the estimate has been on published runs) and {have} is usable. It may fit — try it; if it runs out of memory, use what fits instead (below). About {h}.</source>
        <translation type="vanished">{target} 上很紧：每块 GPU 需要约 {need}（按估算在已公开的训练中的误差，介于 {lo} 和 {hi} 之间），可用 {have}。可能装得下，可以试试；如果显存不足，请改用下方“能装下的替代方案”。约 {h}。</translation>
    </message>
    <message>
        <source>Use a free notebook platform (ModelScope, Baidu AI Studio) or rent a GPU by the hour (AutoDL); see “Rent a cloud GPU” below.</source>
        <translation type="vanished">可以使用免费的 Notebook 平台（魔搭 ModelScope、百度飞桨 AI Studio），或者按小时租用 GPU（AutoDL）；见下方的“租用云 GPU”。</translation>
    </message>
    <message>
        <source>Use a free notebook platform (Google Colab, Kaggle) or rent a GPU by the hour; see “Rent a cloud GPU” below.</source>
        <translation type="vanished">可以使用免费的 Notebook 平台（Google Colab、Kaggle），或者按小时租用 GPU；见下方的“租用云 GPU”。</translation>
    </message>
    <message>
        <source>Check the label on the power supply; if it is smaller, see the PSU upgrade below.</source>
        <translation type="vanished">请查看电源上的铭牌；如果功率不够，见下方“升级”中的电源。</translation>
    </message>
    <message>
        <source>A laptop's GPU link is fixed: nothing to move; data loading and offload are slower.</source>
        <translation type="vanished">笔记本的显卡连接无法更改：不用挪动任何东西；只是数据加载和卸载会慢一些。</translation>
    </message>
    <message>
        <source>add RAM (see upgrades), </source>
        <translation type="vanished">加装内存（见“升级”），</translation>
    </message>
    <message>
        <source>Free some space, keep fewer checkpoints (save_total_limit=2), or add an SSD (see upgrades).</source>
        <translation type="vanished">清理一些空间，少保留几个检查点（save_total_limit=2），或者加一块固态硬盘（见“升级”）。</translation>
    </message>
    <message>
        <source>Put the data set on an NVMe SSD (see upgrades), or pack it into a few large files (WebDataset tar shards, LMDB) so the disk reads sequentially.</source>
        <translation type="vanished">把数据集放到 NVMe 固态硬盘上（见“升级”），或者打包成少量大文件（WebDataset tar 分片、LMDB），让硬盘顺序读取。</translation>
    </message>
    <message>
        <source>{problem} Run: {command}</source>
        <translation type="vanished">{problem}请运行：{command}</translation>
    </message>
    <message>
        <source>{n} jobs</source>
        <translation type="vanished">{n} 个任务</translation>
    </message>
    <message>
        <source>Speed not yet checked on {vendor} GPUs: no published training run on them is in the evidence yet, so the time range is wide</source>
        <translation type="vanished">速度尚未在 {vendor} GPU 上核对：证据中还没有这类 GPU 上公开发布的训练实测，因此时间范围较宽</translation>
    </message>
    <message>
        <source>memory bandwidth</source>
        <translation type="vanished">显存带宽</translation>
    </message>
    <message>
        <source>Data set: {samples} samples × {epochs} epochs (change them on the previous page).</source>
        <translation type="vanished">数据集：{samples} 个样本 × {epochs} 轮（可在上一页修改）。</translation>
    </message>
    <message>
        <source>plus the Trainer's 'auto' fields</source>
        <translation type="vanished">再加上 Trainer 的 'auto' 字段</translation>
    </message>
    <message>
        <source>software stack: eager (Hugging Face Trainer), fused (compiled / fused kernels), handtuned (llm.c-style CUDA)</source>
        <translation type="vanished">软件栈：eager（Hugging Face Trainer）、fused（编译 / 融合算子）、handtuned（llm.c 式手写 CUDA）</translation>
    </message>
    <message>
        <source>{what}: {needs}; there is {have}.</source>
        <translation type="vanished">{what}：{needs}；现有 {have}。</translation>
    </message>
    <message>
        <source>Training time: none: this hardware's software cannot train it.</source>
        <translation type="vanished">训练时间：无，这台电脑的软件环境不支持训练这个任务。</translation>
    </message>
    <message>
        <source>Training time: none: it does not fit here, not even with the changes.</source>
        <translation type="vanished">训练时间：无，即使调整后在这里也装不下。</translation>
    </message>
    <message>
        <source>Training time: none: it does not fit here.</source>
        <translation type="vanished">训练时间：无，在这里装不下。</translation>
    </message>
    <message>
        <source>Training time: {before} → {after}</source>
        <translation type="vanished">训练时间：{before} → {after}</translation>
    </message>
    <message>
        <source>eager PyTorch (Hugging Face Trainer)</source>
        <translation type="vanished">PyTorch 即时执行（eager，Hugging Face Trainer）</translation>
    </message>
    <message>
        <source>Training time: none as configured: it ran out of memory here (measured).</source>
        <translation type="vanished">训练时间：无：按当前设置在本机内存不足（实测）。</translation>
    </message>
    <message>
        <source>Training time: {time} measured (estimated {estimate})</source>
        <translation type="vanished">训练时间：实测 {time}（估算 {estimate}）</translation>
    </message>
    <message>
        <source>{provider} — can be stopped at any time</source>
        <translation type="vanished">{provider}——可能随时被停止</translation>
    </message>
    <message>
        <source>spot (can be stopped)</source>
        <translation type="vanished">竞价实例（可能被中断）</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="vanished">内存</translation>
    </message>
    <message>
        <source>May fit — try it; if it runs out of memory, {fix}.</source>
        <translation type="vanished">可能装得下——先试试；如果显存不足（OOM），{fix}。</translation>
    </message>
    <message>
        <source>{verdict}. {tight}</source>
        <translation type="vanished">{verdict}。{tight}</translation>
    </message>
    <message>
        <source>Likely {range} (about 8 in 10 published runs fell inside such a range), with {stack}.</source>
        <translation type="vanished">可能为 {range}（公开的实测运行约 8 成落在这样的范围内），假设使用{stack}。</translation>
    </message>
    <message>
        <source>With every change tried it still needs {caption}.</source>
        <translation type="vanished">试过所有修改后仍需要 {caption}。</translation>
    </message>
    <message>
        <source>Software s&amp;tack</source>
        <translation type="vanished">软件栈(&amp;K)</translation>
    </message>
    <message>
        <source>tight on this card: it may fit, but the estimate cannot promise it</source>
        <translation type="vanished">这块显卡上很紧：可能装得下，但估算无法保证</translation>
    </message>
    <message>
        <source>Whole run as advised (with this PC's CPU and disk limits)</source>
        <translation type="vanished">按建议调整后的整个训练（计入本机 CPU 和硬盘的限制）</translation>
    </message>
    <message>
        <source>What fits instead: a smaller model</source>
        <translation type="vanished">可以改跑：更小的模型</translation>
    </message>
    <message>
        <source>a different method: 4-bit loading is not available on this GPU; the frozen model takes about 4× more memory</source>
        <translation type="vanished">换一种方法：这块显卡不支持 4 位加载；冻结的模型占用的显存会变为原来的约 4 倍</translation>
    </message>
    <message>
        <source>a different method: about 4× less memory for the model; roughly 20-40% slower steps, slightly lower quality</source>
        <translation type="vanished">换一种方法：模型占用的显存降到原来的约四分之一；每步慢约 20-40%，质量略低</translation>
    </message>
    <message>
        <source>The ladder goes from the easiest job (level 1) to the hardest. Time is for the settings listed for each job below, on this computer.</source>
        <translation type="vanished">难度阶梯从最简单的任务（第 1 级）排到最难的任务。时间按下方各任务列出的设置、在这台电脑上估算。</translation>
    </message>
    <message>
        <source>--gpus: expected a whole number between 1 and 1024, got {value}</source>
        <translation type="vanished">--gpus：应为 1 到 1024 之间的整数，实际为 {value}</translation>
    </message>
    <message>
        <source>--method qlora: needs a transformer model; {id} is a {arch}</source>
        <translation type="vanished">--method qlora：需要 Transformer 模型；{id} 是 {arch}</translation>
    </message>
    <message>
        <source>--seq-len: {id} is not a transformer; use --image-size</source>
        <translation type="vanished">--seq-len：{id} 不是 Transformer 模型；请使用 --image-size</translation>
    </message>
    <message>
        <source>--image-size: {id} is a transformer; use --seq-len</source>
        <translation type="vanished">--image-size：{id} 是 Transformer 模型；请使用 --seq-len</translation>
    </message>
    <message>
        <source>Save everything to keep it, to ask a shop or a friend, or to compare two PCs.</source>
        <translation type="vanished">把所有结果保存下来，方便留档、咨询商家或朋友，或者对比两台电脑。</translation>
    </message>
    <message>
        <source>The report has your machine, the verdict for every job, and for the jobs you picked the memory chart, the settings to change, upgrades and cloud prices.</source>
        <translation type="vanished">报告包含你的电脑配置、每个训练任务的结论，以及所选任务的显存图表、需要修改的设置、升级建议和云服务器价格。</translation>
    </message>
    <message>
        <source>Details only for the job I chose (the ladder is always included)</source>
        <translation type="vanished">只包含我所选训练任务的详情（难度阶梯总会包含在内）</translation>
    </message>
    <message>
        <source>Chosen job: {job} · compared on {target}</source>
        <translation type="vanished">所选训练任务：{job} · 对比对象：{target}</translation>
    </message>
    <message>
        <source>Compared on {target}</source>
        <translation type="vanished">对比对象：{target}</translation>
    </message>
    <message>
        <source>Add RAM (see upgrades), use fewer DataLoader workers, or stream the data set (datasets' streaming=True / memory-mapped files) instead of loading it whole.</source>
        <translation type="vanished">加内存（见“升级”），减少 DataLoader 的 worker 数量，或者以流式方式读取数据集（datasets 的 streaming=True / 内存映射文件），而不是一次性全部载入。</translation>
    </message>
    <message>
        <source>Advice for mainland China</source>
        <translation type="vanished">建议按中国大陆（国内云服务、¥ 价格、国内镜像）</translation>
    </message>
    <message>
        <source>Advice for outside mainland China</source>
        <translation type="vanished">建议按其他地区（海外云服务、$ 价格）</translation>
    </message>
    <message>
        <source>What to change:</source>
        <translation type="vanished">需要修改的设置：</translation>
    </message>
    <message>
        <source>runs</source>
        <translation type="vanished">可以运行</translation>
    </message>
    <message>
        <source>runs with tweaks</source>
        <translation type="vanished">调整后可运行</translation>
    </message>
    <message>
        <source>too slow</source>
        <translation type="vanished">太慢</translation>
    </message>
    <message>
        <source>not supported</source>
        <translation type="vanished">不支持</translation>
    </message>
    <message>
        <source>Peak VRAM per GPU</source>
        <translation type="vanished">每块 GPU 的峰值显存</translation>
    </message>
    <message>
        <source>Of {total} training jobs checked, {runs} run as they are, {tweaks} run after changing settings, and {no} do not fit or are too slow on this computer.</source>
        <translation type="vanished">在检查的 {total} 个训练任务中，{runs} 个可以直接运行，{tweaks} 个修改设置后可以运行，{no} 个在这台电脑上装不下或太慢。</translation>
    </message>
    <message>
        <source>This job needs about {need} of RAM with these settings; this PC has {have}.</source>
        <translation type="vanished">按当前设置，这个训练任务大约需要 {need} 内存；本机有 {have}。</translation>
    </message>
    <message>
        <source>This job needs {need} of video memory per GPU with these settings; you have {have}.</source>
        <translation type="vanished">按当前设置，这个训练任务每块 GPU 需要 {need} 显存；你有 {have}。</translation>
    </message>
    <message>
        <source>With the settings below it needs {need}.</source>
        <translation type="vanished">使用下面的设置后需要 {need}。</translation>
    </message>
    <message>
        <source>Even with every tweak it needs at least {need} per GPU.</source>
        <translation type="vanished">即使用上所有调整，每块 GPU 也至少需要 {need}。</translation>
    </message>
    <message>
        <source>With the suggested settings: {time}</source>
        <translation type="vanished">使用建议的设置：{time}</translation>
    </message>
    <message>
        <source>Speed: {n} samples per second</source>
        <translation type="vanished">速度：每秒 {n} 个样本</translation>
    </message>
    <message>
        <source>Speed: {n} tokens per second</source>
        <translation type="vanished">速度：每秒 {n} 个 token</translation>
    </message>
    <message>
        <source>{cost} ({rate})</source>
        <translation type="vanished">{rate}，共 {cost}</translation>
    </message>
    <message>
        <source>{line}. {note}</source>
        <translation type="vanished">{line}。{note}</translation>
    </message>
    <message>
        <source>{need} / {have}</source>
        <translation type="vanished">{need} / {have}</translation>
    </message>
    <message>
        <source>CPU: {ram} RAM</source>
        <translation type="vanished">CPU：{ram} 内存</translation>
    </message>
    <message>
        <source>RAM needed / total</source>
        <translation type="vanished">所需内存 / 总内存</translation>
    </message>
    <message>
        <source>VRAM needed / available</source>
        <translation type="vanished">所需显存 / 可用显存</translation>
    </message>
    <message>
        <source>With the settings above it needs {need} per GPU; the video memory available is unknown.</source>
        <translation type="vanished">按上面的设置，每块 GPU 需要 {need}；可用显存未知。</translation>
    </message>
    <message>
        <source>With the settings above it needs {need} of the {have} available per GPU.</source>
        <translation type="vanished">按上面的设置，每块 GPU 可用 {have}，需要其中的 {need}。</translation>
    </message>
    <message>
        <source>With the settings above it needs {need} but only {have} is available per GPU: {missing} short.</source>
        <translation type="vanished">按上面的设置需要 {need}，但每块 GPU 只有 {have} 可用：还差 {missing}。</translation>
    </message>
    <message>
        <source>Video memory (VRAM) per GPU</source>
        <translation type="vanished">每块 GPU 的显存</translation>
    </message>
    <message>
        <source>Settings assumed</source>
        <translation type="vanished">假设的设置</translation>
    </message>
    <message>
        <source>VRAM needed / available (per GPU)</source>
        <translation type="vanished">所需显存 / 可用显存（每块 GPU）</translation>
    </message>
    <message>
        <source>After the changes below</source>
        <translation type="vanished">按下面的修改之后</translation>
    </message>
    <message>
        <source>{need} VRAM per GPU, {time}</source>
        <translation type="vanished">每块 GPU 显存 {need}，{time}</translation>
    </message>
    <message>
        <source>Software to fix</source>
        <translation type="vanished">需要修复的软件问题</translation>
    </message>
    <message>
        <source>Does not fit on {target}: even with every tweak it needs about {need} per GPU, and {have} is available.</source>
        <translation type="vanished">在 {target} 上装不下：即使用上所有调整，每块 GPU 也需要大约 {need}，而可用的只有 {have}。</translation>
    </message>
    <message>
        <source>this GPU has no BF16 support (it needs compute capability 8.0, Ampere or newer); FP16 with automatic loss scaling trains the same way</source>
        <translation type="vanished">这块显卡不支持 BF16（需要计算能力 8.0，即 Ampere 或更新的架构）；FP16 配合自动损失缩放，训练效果一样</translation>
    </message>
    <message>
        <source>4-bit loading (bitsandbytes) is not available on this GPU; the frozen model takes 4× more memory</source>
        <translation type="vanished">这块显卡不支持 4 位加载（bitsandbytes）；冻结的模型占用的显存会变为原来的 4 倍</translation>
    </message>
    <message>
        <source>none: tensor cores make it faster, and the model keeps FP32 master weights</source>
        <translation type="vanished">没有代价：Tensor Core 会让它更快，模型仍保留 FP32 主权重</translation>
    </message>
    <message>
        <source>more communication between GPUs each step; fine over NVLink, slower over PCIe</source>
        <translation type="vanished">每一步 GPU 之间的通信更多；有 NVLink 时没问题，走 PCIe 会慢一些</translation>
    </message>
    <message>
        <source>the same training result; a little slower per sample because the GPU does less work at a time</source>
        <translation type="vanished">训练结果不变；因为 GPU 每次处理的数据更少，每个样本会稍慢一些</translation>
    </message>
    <message>
        <source>about {p}% more time: activations are recomputed in the backward pass</source>
        <translation type="vanished">多花大约 {p}% 的时间：激活值会在反向传播时重新计算</translation>
    </message>
    <message>
        <source>Cache the latents and text embeddings before training</source>
        <translation type="vanished">训练前先缓存潜变量（latent）和文本嵌入</translation>
    </message>
    <message>
        <source>Use the 8-bit AdamW optimizer (bitsandbytes)</source>
        <translation type="vanished">使用 8 位 AdamW 优化器（bitsandbytes）</translation>
    </message>
    <message>
        <source>optimizer memory falls from 8 to 2 bytes per parameter; results stay very close</source>
        <translation type="vanished">优化器占用的显存从每个参数 8 字节降到 2 字节；训练结果非常接近</translation>
    </message>
    <message>
        <source>Offload the optimizer state and FP32 master weights to CPU RAM (ZeRO-3 offload)</source>
        <translation type="vanished">把优化器状态和 FP32 主权重卸载到 CPU 内存（ZeRO-3 offload）</translation>
    </message>
    <message>
        <source>needs {ram} of RAM in all; steps are about {f}× slower</source>
        <translation type="vanished">总共需要 {ram} 内存；每步耗时变为原来的约 {f} 倍</translation>
    </message>
    <message>
        <source>trains small adapter matrices only: far less memory; quality is close to full fine-tuning for most tasks</source>
        <translation type="vanished">只训练小的适配器矩阵：显存占用少得多；对大多数任务来说，效果接近全量微调</translation>
    </message>
    <message>
        <source>about 4× less memory for the model; roughly 20-40% slower steps, slightly lower quality</source>
        <translation type="vanished">模型占用的显存降到原来的约四分之一；每步慢 20-40% 左右，效果略有下降</translation>
    </message>
    <message>
        <source>samples longer than {n} tokens are cut off (or split); little is lost when most of the data is shorter: this data set averages about {avg} tokens</source>
        <translation type="vanished">超过 {n} 个 token 的样本会被截断（或拆分）；大部分数据都更短时损失很小：这个数据集平均约 {avg} 个 token</translation>
    </message>
    <message>
        <source>samples longer than {n} tokens are cut off (or split); check how long your samples are: little is lost when most of them are shorter</source>
        <translation type="vanished">超过 {n} 个 token 的样本会被截断（或拆分）；请检查你的样本有多长：大部分样本都更短时损失很小</translation>
    </message>
    <message>
        <source>Offload the optimizer state to CPU RAM (DeepSpeed ZeRO-2 offload)</source>
        <translation type="vanished">把优化器状态卸载到 CPU 内存（DeepSpeed ZeRO-2 offload）</translation>
    </message>
    <message>
        <source>a smaller model is less capable, but it fits this GPU</source>
        <translation type="vanished">小模型能力弱一些，但能装进这块显卡</translation>
    </message>
    <message>
        <source>Runs with changes</source>
        <translation type="vanished">调整后可运行</translation>
    </message>
    <message>
        <source>Fits, but too slow</source>
        <translation type="vanished">装得下，但太慢</translation>
    </message>
    <message>
        <source>Won't fit</source>
        <translation type="vanished">装不下</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation type="vanished">额外开销</translation>
    </message>
    <message>
        <source>needs {need} of {have} RAM (on the CPU)</source>
        <translation type="vanished">需要 {need}，内存共有 {have}（在 CPU 上运行）</translation>
    </message>
    <message>
        <source>Use a free cloud notebook (Google Colab, Kaggle) or rent a GPU by the hour; see the cloud options below.</source>
        <translation type="vanished">可以使用免费的云端笔记本（Google Colab、Kaggle），或者按小时租用 GPU；见下方的云服务选项。</translation>
    </message>
    <message>
        <source>Cloud:</source>
        <translation type="vanished">云服务器：</translation>
    </message>
    <message>
        <source>Video memory: needed vs yours</source>
        <translation type="vanished">显存：需要 / 你有</translation>
    </message>
    <message>
        <source>Settings for the chosen job</source>
        <translation type="vanished">所选训练任务的设置</translation>
    </message>
    <message>
        <source>Memory (RAM): needed vs yours</source>
        <translation type="vanished">内存：需要 / 你有</translation>
    </message>
    <message>
        <source>training: {method}, {precision}, {optimizer}, micro-batch {batch}</source>
        <translation type="vanished">训练方式为 {method}，{precision}，{optimizer}，微批次 {batch}</translation>
    </message>
    <message>
        <source>, {how}</source>
        <translation type="vanished">，{how}</translation>
    </message>
    <message>
        <source> ({rate}/GPU-hour)</source>
        <translation type="vanished">（每 GPU 小时 {rate}）</translation>
    </message>
    <message>
        <source>{label}: {provider}, {gpus}{how}: about {h}, {cost}{rate}</source>
        <translation type="vanished">{label}：{provider}，{gpus}{how}：约 {h}，{cost}{rate}</translation>
    </message>
    <message>
        <source>rent: {line}</source>
        <translation type="vanished">租用：{line}</translation>
    </message>
    <message>
        <source>QLoRA needs bitsandbytes 4-bit kernels, which run on NVIDIA CUDA and AMD ROCm only</source>
        <translation type="vanished">QLoRA 需要 bitsandbytes 的 4 位内核，只能在 NVIDIA CUDA 和 AMD ROCm 上运行</translation>
    </message>
    <message>
        <source>8-bit AdamW needs bitsandbytes, which runs on NVIDIA CUDA and AMD ROCm only</source>
        <translation type="vanished">8 位 AdamW 需要 bitsandbytes，只能在 NVIDIA CUDA 和 AMD ROCm 上运行</translation>
    </message>
    <message>
        <source>{method} training, {precision}, {optimizer}, micro-batch {batch}</source>
        <translation type="vanished">训练方式 {method}，{precision}，{optimizer}，微批次 {batch}</translation>
    </message>
    <message>
        <source>Measured benchmarks unknown because the benchmark module is not available ({detail})</source>
        <translation type="vanished">实测基准数据未知，因为基准测试模块不可用（{detail}）</translation>
    </message>
    <message>
        <source>{provider} (spot: may be stopped)</source>
        <translation type="vanished">{provider}（竞价实例：可能被中断）</translation>
    </message>
    <message>
        <source>Switch the language (Ctrl+L)</source>
        <translation type="vanished">切换语言（Ctrl+L）</translation>
    </message>
    <message>
        <source>Runs on {target} with {n} change(s) listed below (how long is unknown: this GPU's speed is not in the catalog).</source>
        <translation type="vanished">在 {target} 上按下面列出的 {n} 处修改后可以运行（需要多长时间未知：显卡列表中没有这块 GPU 的速度数据）。</translation>
    </message>
    <message>
        <source>Runs on {target} with {n} change(s) listed below: about {h}.</source>
        <translation type="vanished">在 {target} 上按下面列出的 {n} 处修改后可以运行：大约需要 {h}。</translation>
    </message>
    <message>
        <source>Train the smaller model of the family: {title}</source>
        <translation type="vanished">改为训练同系列中更小的模型：{title}</translation>
    </message>
    <message>
        <source>samples share a row, so a few attention patterns cross sample boundaries unless the trainer masks them (TRL does with padding_free / flash attention); the number of optimizer steps per epoch drops, so check the learning-rate schedule</source>
        <translation type="vanished">多条样本共用一行，除非训练器把它们隔开（TRL 的 padding_free / flash attention 会这样做），少量注意力会跨过样本边界；每轮的优化器步数变少，请检查学习率调度</translation>
    </message>
    <message>
        <source>the cheapest card here that runs this job: {h} with {vram}</source>
        <translation type="vanished">能跑这个训练任务的最便宜的显卡：显存 {vram}，需要 {h}</translation>
    </message>
    <message>
        <source>the cheapest card that runs it without changing the training method: {h}</source>
        <translation type="vanished">不改训练方式就能跑的最便宜的显卡：{h}</translation>
    </message>
    <message>
        <source>even this card needs about {h}: renting a faster GPU is quicker</source>
        <translation type="vanished">即使用这张卡也需要大约 {h}：租一块更快的 GPU 会更快</translation>
    </message>
    <message>
        <source>a catalog GPU instead of this PC's ('4090', 'a100 80gb')</source>
        <translation type="vanished">使用显卡列表中的 GPU，而不是本机的（如 '4090'、'a100 80gb'）</translation>
    </message>
    <message>
        <source>no GPU: the job runs in RAM</source>
        <translation type="vanished">没有 GPU：训练任务在内存中运行</translation>
    </message>
    <message>
        <source>{name} — {price}: {reason}</source>
        <translation type="vanished">{name} — {price}：{reason}</translation>
    </message>
    <message>
        <source>(this job: {time})</source>
        <translation type="vanished">（本任务：{time}）</translation>
    </message>
    <message>
        <source>(price not verified)</source>
        <translation type="vanished">（价格未核实）</translation>
    </message>
    <message>
        <source>Machine: {label}</source>
        <translation type="vanished">电脑：{label}</translation>
    </message>
    <message>
        <source>Disk random read (4 KiB)</source>
        <translation type="vanished">硬盘随机读取（4 KiB）</translation>
    </message>
    <message>
        <source>this PC (CPU only)</source>
        <translation type="vanished">本机（仅 CPU）</translation>
    </message>
    <message>
        <source>Your VRAM: {have}</source>
        <translation type="vanished">你的显存：{have}</translation>
    </message>
    <message>
        <source>PyTorch is not installed, so the GPU was not measured. Install the ROCm build with: pip install torch --index-url {url}</source>
        <translation type="vanished">尚未安装 PyTorch，因此没有测量 GPU。安装 ROCm 版本：pip install torch --index-url {url}</translation>
    </message>
    <message>
        <source>PyTorch is not installed, so the GPU was not measured. Install the CUDA build with: pip install torch --index-url {url}</source>
        <translation type="vanished">尚未安装 PyTorch，因此没有测量 GPU。安装 CUDA 版本：pip install torch --index-url {url}</translation>
    </message>
    <message>
        <source>Clocks: graphics {cur} MHz (max {max}), memory max {mem} MHz</source>
        <translation type="vanished">频率：核心 {cur} MHz（最高 {max}），显存最高 {mem} MHz</translation>
    </message>
    <message>
        <source>Power: {draw} W now, limit {limit} W</source>
        <translation type="vanished">功耗：当前 {draw} W，上限 {limit} W</translation>
    </message>
    <message>
        <source>with: {tweaks}</source>
        <translation type="vanished">需要：{tweaks}</translation>
    </message>
    <message>
        <source>try: {line}</source>
        <translation type="vanished">可以试试：{line}</translation>
    </message>
    <message>
        <source>{used} of {name}'s memory is already in use (display or other programs)</source>
        <translation type="vanished">{name} 已有 {used} 显存被占用（显示输出或其他程序）</translation>
    </message>
    <message>
        <source>Key figures</source>
        <translation type="vanished">关键数据</translation>
    </message>
    <message>
        <source>Where the video memory goes</source>
        <translation type="vanished">显存都用在哪里</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation type="vanished">目录</translation>
    </message>
    <message>
        <source>Method</source>
        <translation type="vanished">方法</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="vanished">精度</translation>
    </message>
    <message>
        <source>Batch size (per GPU)</source>
        <translation type="vanished">批大小（每块 GPU）</translation>
    </message>
    <message>
        <source>Sequence length (tokens)</source>
        <translation type="vanished">序列长度（token 数）</translation>
    </message>
    <message>
        <source>Image size (pixels)</source>
        <translation type="vanished">图像尺寸（像素）</translation>
    </message>
    <message>
        <source>The NVIDIA driver supports CUDA up to {have}; PyTorch for this GPU needs CUDA {need}. Update the driver first, then install PyTorch.</source>
        <translation type="vanished">NVIDIA 驱动最高支持 CUDA {have}；这块 GPU 对应的 PyTorch 需要 CUDA {need}。请先更新驱动，再安装 PyTorch。</translation>
    </message>
    <message>
        <source>{gpu}: {source} (as of {date})</source>
        <translation type="vanished">{gpu}：{source}（截至 {date}）</translation>
    </message>
    <message>
        <source>{job}: {source}</source>
        <translation type="vanished">{job}：{source}</translation>
    </message>
    <message>
        <source>Needs {need} per GPU; the video memory available is unknown.</source>
        <translation type="vanished">每块 GPU 需要 {need}；可用显存未知。</translation>
    </message>
    <message>
        <source>Needs {need} of the {have} available per GPU.</source>
        <translation type="vanished">每块 GPU 可用 {have}，需要其中的 {need}。</translation>
    </message>
    <message>
        <source>Needs {need} but only {have} is available per GPU: {missing} short.</source>
        <translation type="vanished">需要 {need}，但每块 GPU 只有 {have} 可用：还差 {missing}。</translation>
    </message>
    <message>
        <source>Upgrade</source>
        <translation type="vanished">升级</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation type="vanished">每小时</translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="vanished">合计</translation>
    </message>
    <message>
        <source>Offload the optimizer to CPU RAM (DeepSpeed ZeRO-2 offload)</source>
        <translation type="vanished">把优化器卸载到 CPU 内存（DeepSpeed ZeRO-2 offload）</translation>
    </message>
    <message>
        <source>needs {ram} more RAM; steps are about {f}× slower</source>
        <translation type="vanished">需要多 {ram} 内存；每步大约慢 {f} 倍</translation>
    </message>
    <message>
        <source>&lt;model-id&gt;</source>
        <translation type="vanished">&lt;模型 ID&gt;</translation>
    </message>
    <message>
        <source>{path}: not valid JSON ({reason})</source>
        <translation type="vanished">{path}：不是有效的 JSON（{reason}）</translation>
    </message>
    <message>
        <source>A trial of {job} measured this PC {n}× slower than estimated: the other estimates here are not corrected for it.</source>
        <translation type="vanished">“{job}”的试运行实测：本机耗时是估算的 {n} 倍。这里的其他估算没有据此修正。</translation>
    </message>
    <message>
        <source>A trial of {job} measured this PC {n}× faster than estimated: the other estimates here are not corrected for it.</source>
        <translation type="vanished">“{job}”的试运行实测：本机速度是估算的 {n} 倍。这里的其他估算没有据此修正。</translation>
    </message>
</context>
</TS>
