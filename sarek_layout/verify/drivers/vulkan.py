"""Vulkan: run a SPIR-V compute shader on a real Vulkan device (Mesa's lavapipe on a CPU-only
machine), and the ``vulkan`` toolchain that measures the generated GLSL that way.

``run_spirv`` is the smallest compute dispatch the Vulkan API allows, through the ``vulkan``
Python package (cffi bindings to the system's libvulkan): one storage buffer per binding,
host-visible memory, one dispatch, read back. The SPIR-V is glslang's own output, run as it
is (wgpu would re-translate it through naga, whose SPIR-V reader refuses the GLSL.std.450
packing instructions the accessors use). The device's shaderInt64/shaderFloat64 features
are enabled when it has them.

The toolchain (``VulkanDriver``) compiles the runtime probe shader of ``gpu_probes`` with
glslang and runs it: every size, alignment and member offset as the device reads the
generated structs and accessors.
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import List, Optional, Sequence, Union

from ..probes import Probe
from . import Driver, HeaderSet, Measurement, ProbeFailed

__all__ = ["VulkanUnavailable", "vulkan_problem", "run_spirv", "device_name", "VulkanDriver"]


class VulkanUnavailable(Exception):
    """No usable Vulkan device or bindings: the message says what to install."""


INSTALL = ("apt-get install -y mesa-vulkan-drivers libvulkan1 glslang-tools && "
           "pip install vulkan")


def _runtime_dir() -> None:
    # The loader and Mesa complain (and some versions misbehave) without XDG_RUNTIME_DIR.
    if not os.environ.get("XDG_RUNTIME_DIR"):
        path = os.path.join(tempfile.gettempdir(), f"sarek-xdg-{os.getuid()}")
        os.makedirs(path, mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = path


def _vk():
    try:
        import vulkan as vk  # type: ignore[import-not-found]
    except (ImportError, OSError) as e:  # OSError: the package loads libvulkan on import
        raise VulkanUnavailable(f"the vulkan Python package cannot be used ({e}); {INSTALL}") from None
    return vk


def _physical_device(vk, instance):
    devices = vk.vkEnumeratePhysicalDevices(instance)
    if not devices:
        raise VulkanUnavailable(f"no Vulkan device; {INSTALL}")
    wanted = os.environ.get("SAREK_VULKAN_DEVICE", "").lower()
    for pd in devices:
        name = vk.vkGetPhysicalDeviceProperties(pd).deviceName
        if not wanted or wanted in name.lower():
            return pd
    raise VulkanUnavailable(f"no Vulkan device matches SAREK_VULKAN_DEVICE={wanted!r}")


def _instance(vk):
    _runtime_dir()
    app = vk.VkApplicationInfo(sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO,
                               pApplicationName="sarek-layout", apiVersion=vk.VK_MAKE_VERSION(1, 1, 0))
    try:
        return vk.vkCreateInstance(vk.VkInstanceCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, pApplicationInfo=app), None)
    except vk.VkError as e:
        raise VulkanUnavailable(f"cannot create a Vulkan instance ({type(e).__name__}); {INSTALL}") from None


def vulkan_problem() -> Optional[str]:
    """``None`` when a Vulkan device with shaderInt64 and shaderFloat64 can run compute
    shaders here, else why not (with the install line)."""
    try:
        vk = _vk()
        instance = _instance(vk)
        try:
            pd = _physical_device(vk, instance)
            f = vk.vkGetPhysicalDeviceFeatures(pd)
            if not (f.shaderInt64 and f.shaderFloat64):
                return "the Vulkan device lacks shaderInt64 or shaderFloat64"
        finally:
            vk.vkDestroyInstance(instance, None)
    except VulkanUnavailable as e:
        return str(e)
    return None


def device_name() -> str:
    vk = _vk()
    instance = _instance(vk)
    try:
        return vk.vkGetPhysicalDeviceProperties(_physical_device(vk, instance)).deviceName
    finally:
        vk.vkDestroyInstance(instance, None)


Buffer = Union[bytes, int]


def run_spirv(spirv: bytes, buffers: Sequence[Buffer], groups: int = 1,
              uniform: Sequence[int] = ()) -> List[bytes]:
    """Run the compute shader ``spirv`` (entry ``main``) over ``groups`` work groups.

    ``buffers[i]`` is storage buffer binding ``i`` of set 0 (a uniform buffer where ``i`` is
    in ``uniform``: a ``layout(std140) uniform`` block): initial bytes, or a size (zero
    filled). Returns every buffer's bytes after the dispatch.
    """
    vk = _vk()
    instance = _instance(vk)
    created = []  # (destroy function, handle), destroyed in reverse order
    try:
        pd = _physical_device(vk, instance)
        family = next(i for i, q in enumerate(vk.vkGetPhysicalDeviceQueueFamilyProperties(pd))
                      if q.queueFlags & vk.VK_QUEUE_COMPUTE_BIT)
        have = vk.vkGetPhysicalDeviceFeatures(pd)
        features = vk.VkPhysicalDeviceFeatures(shaderInt64=have.shaderInt64,
                                                shaderFloat64=have.shaderFloat64)
        queue_info = vk.VkDeviceQueueCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, queueFamilyIndex=family,
            queueCount=1, pQueuePriorities=[1.0])
        device = vk.vkCreateDevice(pd, vk.VkDeviceCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, queueCreateInfoCount=1,
            pQueueCreateInfos=[queue_info], pEnabledFeatures=features,
            pNext=_scalar_block_layout(vk, pd)), None)
        try:
            return _dispatch(vk, pd, device, family, spirv, buffers, groups, created,
                             frozenset(uniform))
        finally:
            for destroy, handle in reversed(created):
                destroy(device, handle, None)
            vk.vkDestroyDevice(device, None)
    finally:
        vk.vkDestroyInstance(instance, None)


def _scalar_block_layout(vk, pd):
    """The device feature a block laid out by GL_EXT_scalar_block_layout needs (the probes of
    types of the ``scalar`` rules), enabled where the device has it (``None``: it has not)."""
    try:
        have = vk.VkPhysicalDeviceScalarBlockLayoutFeatures(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES)
        vk.vkGetPhysicalDeviceFeatures2(pd, vk.VkPhysicalDeviceFeatures2(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, pNext=have))
        if not have.scalarBlockLayout:
            return None
    except (AttributeError, vk.VkError):  # a Vulkan 1.0 loader or bindings
        return None
    return vk.VkPhysicalDeviceScalarBlockLayoutFeatures(
        sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES,
        scalarBlockLayout=True)


def _memory_type(vk, pd, bits: int) -> int:
    props = vk.vkGetPhysicalDeviceMemoryProperties(pd)
    want = vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
    for i in range(props.memoryTypeCount):
        if bits & (1 << i) and props.memoryTypes[i].propertyFlags & want == want:
            return i
    raise VulkanUnavailable("no host-visible coherent memory type")


def _dispatch(vk, pd, device, family, spirv, buffers, groups, created, uniform=frozenset()
              ) -> List[bytes]:
    sizes = [b if isinstance(b, int) else len(b) for b in buffers]
    kinds = [vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER if i in uniform
             else vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER for i in range(len(buffers))]
    handles = []
    for data, size in zip(buffers, sizes):
        size = max(size, 4)
        buf = vk.vkCreateBuffer(device, vk.VkBufferCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, size=size,
            usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
            sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
        created.append((vk.vkDestroyBuffer, buf))
        req = vk.vkGetBufferMemoryRequirements(device, buf)
        mem = vk.vkAllocateMemory(device, vk.VkMemoryAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, allocationSize=req.size,
            memoryTypeIndex=_memory_type(vk, pd, req.memoryTypeBits)), None)
        created.append((vk.vkFreeMemory, mem))
        vk.vkBindBufferMemory(device, buf, mem, 0)
        mapped = vk.vkMapMemory(device, mem, 0, size, 0)
        initial = bytes(size) if isinstance(data, int) else bytes(data) + bytes(size - len(data))
        mapped[:size] = initial
        vk.vkUnmapMemory(device, mem)
        handles.append((buf, mem, size))

    bindings = [vk.VkDescriptorSetLayoutBinding(
        binding=i, descriptorType=kinds[i], descriptorCount=1,
        stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT) for i in range(len(handles))]
    set_layout = vk.vkCreateDescriptorSetLayout(device, vk.VkDescriptorSetLayoutCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        bindingCount=len(bindings), pBindings=bindings), None)
    created.append((vk.vkDestroyDescriptorSetLayout, set_layout))
    pipeline_layout = vk.vkCreatePipelineLayout(device, vk.VkPipelineLayoutCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, setLayoutCount=1,
        pSetLayouts=[set_layout]), None)
    created.append((vk.vkDestroyPipelineLayout, pipeline_layout))
    module = vk.vkCreateShaderModule(device, vk.VkShaderModuleCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, codeSize=len(spirv),
        pCode=spirv), None)
    created.append((vk.vkDestroyShaderModule, module))
    stage = vk.VkPipelineShaderStageCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=module, pName="main")
    pipeline = vk.vkCreateComputePipelines(device, vk.VK_NULL_HANDLE, 1, [vk.VkComputePipelineCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, stage=stage,
        layout=pipeline_layout)], None)[0]
    created.append((vk.vkDestroyPipeline, pipeline))
    pool = vk.vkCreateDescriptorPool(device, vk.VkDescriptorPoolCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, maxSets=1,
        poolSizeCount=len(set(kinds)),
        pPoolSizes=[vk.VkDescriptorPoolSize(type=k, descriptorCount=kinds.count(k))
                    for k in sorted(set(kinds))]), None)
    created.append((vk.vkDestroyDescriptorPool, pool))
    (dset,) = vk.vkAllocateDescriptorSets(device, vk.VkDescriptorSetAllocateInfo(
        sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, descriptorPool=pool,
        descriptorSetCount=1, pSetLayouts=[set_layout]))
    writes = [vk.VkWriteDescriptorSet(
        sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=dset, dstBinding=i,
        descriptorCount=1, descriptorType=kinds[i],
        pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=buf, offset=0, range=size)])
        for i, (buf, _, size) in enumerate(handles)]
    vk.vkUpdateDescriptorSets(device, len(writes), writes, 0, None)

    cmd_pool = vk.vkCreateCommandPool(device, vk.VkCommandPoolCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, queueFamilyIndex=family), None)
    created.append((vk.vkDestroyCommandPool, cmd_pool))
    (cmd,) = vk.vkAllocateCommandBuffers(device, vk.VkCommandBufferAllocateInfo(
        sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, commandPool=cmd_pool,
        level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1))
    vk.vkBeginCommandBuffer(cmd, vk.VkCommandBufferBeginInfo(
        sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT))
    vk.vkCmdBindPipeline(cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipeline)
    vk.vkCmdBindDescriptorSets(cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1,
                               [dset], 0, None)
    vk.vkCmdDispatch(cmd, max(groups, 1), 1, 1)
    vk.vkEndCommandBuffer(cmd)
    queue = vk.vkGetDeviceQueue(device, family, 0)
    vk.vkQueueSubmit(queue, 1, [vk.VkSubmitInfo(sType=vk.VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                                commandBufferCount=1, pCommandBuffers=[cmd])],
                     vk.VK_NULL_HANDLE)
    vk.vkQueueWaitIdle(queue)

    out = []
    for (buf, mem, size), want in zip(handles, sizes):
        mapped = vk.vkMapMemory(device, mem, 0, size, 0)
        out.append(bytes(mapped[:want]))
        vk.vkUnmapMemory(device, mem)
    return out


class VulkanDriver(Driver):
    """The generated GLSL read by compute shaders on the Vulkan device (one build and run per
    ``gpu_probes.PROBES_PER_SHADER`` probes)."""

    estimate_s = 0.15

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        from .glsl import compile_glsl
        from .gpu_probes import GLSL_PROBE, measure_in_batches

        def run(program) -> bytes:
            spirv = compile_glsl(self.toolchain.display, program.source, headers)
            try:
                return run_spirv(spirv, program.buffers())[1]
            except VulkanUnavailable as e:
                raise ProbeFailed(self.toolchain.display, str(e)) from None

        start = time.perf_counter()
        values, shaders = measure_in_batches(GLSL_PROBE, headers, probes, run)
        return Measurement((("", values),), time.perf_counter() - start, builds=shaders)
